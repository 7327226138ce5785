package dev.kopek.platform;

/** Start-up cannot reach a usable database; reported as one line by {@link DatabaseFailureAnalyzer}. */
public final class DatabaseUnavailableException extends RuntimeException {

    public DatabaseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
