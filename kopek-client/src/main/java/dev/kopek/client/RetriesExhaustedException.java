package dev.kopek.client;

/**
 * The retry budget ran out while the outcome was still open (transport failures, {@code request_in_progress},
 * 429 or 5xx). Nothing is known to have failed: retry later <em>with the same key</em>, or look the object up.
 */
public final class RetriesExhaustedException extends KopekException {

    private static final long serialVersionUID = 1L;

    private final int attempts;
    private final int lastStatus;
    private final String lastCode;

    RetriesExhaustedException(int attempts, int lastStatus, String lastProblem, Throwable cause) {
        super(
                "no final answer after " + attempts + " tries (last: "
                        + (lastStatus == 0 ? String.valueOf(cause) : lastStatus + " " + lastProblem)
                        + "); retry later with "
                        + "the same idempotency key",
                cause);
        this.attempts = attempts;
        this.lastStatus = lastStatus;
        this.lastCode = lastProblem;
    }

    public int attempts() {
        return attempts;
    }

    /** The last HTTP status seen, or 0 when the last try failed in transport. */
    public int lastStatus() {
        return lastStatus;
    }

    /** The last problem {@code code} seen ({@code rate_limited}, {@code request_in_progress}, ...), or null. */
    public String lastCode() {
        return lastCode;
    }
}
