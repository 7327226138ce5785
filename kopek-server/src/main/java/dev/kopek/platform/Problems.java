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
        putRequestId(body);
        return tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(body);
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
