package dev.kopek.platform;

import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * A client-facing refusal: an RFC 9457 problem with a stable {@code code} and, where one field is at fault,
 * its name. Thrown only at the web edge; business outcomes travel as values and are mapped to these there.
 */
public final class ApiProblem extends RuntimeException {

    private final HttpStatus status;
    private final String code;
    private final String field;
    private final Map<String, String> headers;

    private ApiProblem(HttpStatus status, String code, String detail, String field, Map<String, String> headers) {
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
        this.field = field;
        this.headers = headers;
    }

    public static ApiProblem badRequest(String code, String field, String detail) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, code, detail, field, Map.of());
    }

    public static ApiProblem of(HttpStatus status, String code, String detail) {
        return new ApiProblem(status, code, detail, null, Map.of());
    }

    public static ApiProblem withHeaders(HttpStatus status, String code, String detail, Map<String, String> headers) {
        return new ApiProblem(status, code, detail, null, Map.copyOf(headers));
    }

    public static ApiProblem notFound(String what) {
        return of(HttpStatus.NOT_FOUND, "not_found", what + " not found");
    }

    public HttpStatus status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String field() {
        return field;
    }

    public Map<String, String> headers() {
        return headers;
    }
}
