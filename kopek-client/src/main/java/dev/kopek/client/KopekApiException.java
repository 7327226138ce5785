package dev.kopek.client;

/**
 * Kopek refused the request with an RFC 9457 problem that retrying with the same key cannot change: bad input
 * (400), authentication (401/403), not found (404), a business refusal (409 other than {@code request_in_progress},
 * 402) or a reused key (422, {@link IdempotencyKeyReusedException}). {@link #code()} is the stable error code.
 */
public class KopekApiException extends KopekException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;
    private final String field;
    private final String requestId;

    public KopekApiException(int status, String code, String detail, String field, String requestId) {
        super(status + " " + code + (detail == null ? "" : ": " + detail), null);
        this.status = status;
        this.code = code;
        this.field = field;
        this.requestId = requestId;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    /** The request field at fault, where one is. */
    public String field() {
        return field;
    }

    /** Kopek's request id for support, where the answer carried one. */
    public String requestId() {
        return requestId;
    }
}
