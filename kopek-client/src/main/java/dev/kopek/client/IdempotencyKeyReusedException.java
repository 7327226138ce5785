package dev.kopek.client;

/**
 * 422 {@code idempotency_key_reused}: this key was already used for an operation with other parameters. It is a
 * bug in the caller (one key, two operations): use a new key only if this really is a new operation.
 */
public final class IdempotencyKeyReusedException extends KopekApiException {

    private static final long serialVersionUID = 1L;

    public IdempotencyKeyReusedException(String detail, String requestId) {
        super(422, "idempotency_key_reused", detail, null, requestId);
    }
}
