package dev.kopek.platform;

import java.net.URI;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import tools.jackson.databind.json.JsonMapper;

public final class Problems {

    /**
     * Every problem's {@code type} is this Kopek's own page about its code ({@code GET /problems/{code}}, catalogue
     * {@link ProblemCode}): a relative reference, resolved against the request's URI as RFC 9457 allows, so it
     * points at a page that exists wherever Kopek runs.
     */
    public static final String TYPE_BASE = "/problems/";

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Problems() {}

    /**
     * The problem body as bytes to store with an idempotency key, so that a replayed refusal is the same bytes as
     * the first one. Same fields as the handler's responses.
     */
    public static String json(int status, String code, String detail) {
        return json(status, code, detail, null);
    }

    /** The same, naming the field at fault when there is one. */
    public static String json(int status, String code, String detail, String field) {
        var body = new java.util.LinkedHashMap<String, Object>();
        body.put("type", TYPE_BASE + code);
        body.put("title", code.replace('_', ' '));
        body.put("status", status);
        body.put("detail", detail);
        body.put("code", code);
        if (field != null) {
            body.put("field", field);
        }
        putRequestId(body);
        return MAPPER.writeValueAsString(body);
    }

    /**
     * The request id as a paragraph of a hand-written console page (HTML-escaped; the id is already of a safe shape),
     * or nothing outside a request.
     */
    public static String requestIdParagraph() {
        String requestId = LogContext.requestId();
        return requestId == null
                ? ""
                : "<p class=\"muted small\">Request id <code>"
                        + org.springframework.web.util.HtmlUtils.htmlEscape(requestId) + "</code></p>";
    }

    /**
     * The stable code of a refusal that only has a status: the web server's own refusals, framework errors and
     * error dispatches all name a status the same way.
     */
    public static String codeFor(int status) {
        return switch (status) {
            case 400 -> "bad_request";
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 406 -> "not_acceptable";
            case 408 -> "request_timeout";
            case 409 -> "conflict";
            case 411 -> "length_required";
            case 413 -> "body_too_large";
            case 414 -> "uri_too_long";
            case 415 -> "unsupported_media_type";
            case 417 -> "expectation_failed";
            case 429 -> "too_many_requests";
            case 431 -> "headers_too_large";
            case 501 -> "not_implemented";
            case 503 -> "service_unavailable";
            case 505 -> "http_version_not_supported";
            default -> status >= 500 ? "internal_error" : "bad_request";
        };
    }

    public static ProblemDetail detail(HttpStatusCode status, String code, String detail) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        body.setType(URI.create(TYPE_BASE + code));
        body.setTitle(code.replace('_', ' '));
        body.setProperty("code", code);
        withRequestId(body);
        return body;
    }

    /** Every problem names the request it answers, so a merchant's support ticket can point at the log lines. */
    public static ProblemDetail withRequestId(ProblemDetail body) {
        String requestId = LogContext.requestId();
        if (requestId != null) {
            body.setProperty(LogContext.REQUEST_ID, requestId);
        }
        return body;
    }

    private static void putRequestId(java.util.Map<String, Object> body) {
        String requestId = LogContext.requestId();
        if (requestId != null) {
            body.put(LogContext.REQUEST_ID, requestId);
        }
    }
}
