package dev.kopek.platform;

import java.net.URI;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;

public final class Problems {

    public static final String TYPE_BASE = "https://kopek.dev/problems/";

    private Problems() {
    }

    public static ProblemDetail detail(HttpStatusCode status, String code, String detail) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        body.setType(URI.create(TYPE_BASE + code));
        body.setTitle(code.replace('_', ' '));
        body.setProperty("code", code);
        return body;
    }
}
