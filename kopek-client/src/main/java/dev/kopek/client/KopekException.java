package dev.kopek.client;

/** Everything this client throws. */
public class KopekException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public KopekException(String message, Throwable cause) {
        super(message, cause);
    }
}
