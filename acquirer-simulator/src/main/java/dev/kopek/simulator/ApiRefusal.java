package dev.kopek.simulator;

/**
 * A request the acquirer understood and refused without any effect, e.g. 404 {@code charge_not_found}
 * or 409 {@code amount_exceeds_capturable}. The router turns it into {@code {"error": code}}; the Java
 * API turns it into an IllegalArgumentException (404) or IllegalStateException (409).
 */
final class ApiRefusal extends RuntimeException {
    private final int status;
    private final String code;

    ApiRefusal(int status, String code) {
        // No stack trace: control flow for a refused request, not a bug.
        super(code, null, false, false);
        this.status = status;
        this.code = code;
    }

    static ApiRefusal notFound(String code) {
        return new ApiRefusal(404, code);
    }

    static ApiRefusal conflict(String code) {
        return new ApiRefusal(409, code);
    }

    int status() {
        return status;
    }

    String code() {
        return code;
    }

    Answer.Reply reply() {
        return Json.error(status, code);
    }

    /** The exception a Java caller of {@link AcquirerSimulator} sees. */
    RuntimeException forJava() {
        return status == 404 ? new IllegalArgumentException(code) : new IllegalStateException(code);
    }
}
