package dev.kopek.simulator;

/** A client error the router turns into {@code 400 {"error": code, "message": ...}}. */
final class BadRequest extends RuntimeException {
    private final String code;

    BadRequest(String code, String message) {
        // No stack trace: this is control flow for a client mistake, not a bug worth a trace.
        super(message, null, false, false);
        this.code = code;
    }

    String code() {
        return code;
    }
}
