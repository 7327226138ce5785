package dev.kopek.platform;

import java.net.URI;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;

public final class Problems {

    public static final String TYPE_BASE = "https://kopek.dev/problems/";

    private Problems() {
    }

    /**
     * The problem body as bytes to store with an idempotency key, so that a replayed refusal is the same bytes as
     * the first one. Same fields as the handler's responses.
     */
    public static String json(int status, String code, String detail) {
        var body = new java.util.LinkedHashMap<String, Object>();
        body.put("type", TYPE_BASE + code);
        body.put("title", code.replace('_', ' '));
        body.put("status", status);
        body.put("detail", detail);
        body.put("code", code);
        return tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(body);
    }

    public static ProblemDetail detail(HttpStatusCode status, String code, String detail) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        body.setType(URI.create(TYPE_BASE + code));
        body.setTitle(code.replace('_', ' '));
        body.setProperty("code", code);
        return body;
    }
}
