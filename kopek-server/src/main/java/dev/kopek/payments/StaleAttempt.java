package dev.kopek.payments;

import dev.kopek.idempotency.ClientKey;

/**
 * Thrown inside phase 3's transaction when the caller no longer owns the key (a later attempt took it over): the
 * transaction rolls back and the stale owner changes nothing (L4).
 */
final class StaleAttempt extends RuntimeException {

    StaleAttempt(ClientKey ck, int attempt) {
        super("attempt " + attempt + " no longer owns " + ck, null, false, false);
    }
}
