package dev.kopek.simulator;

import java.time.Instant;

/**
 * A dispute (chargeback) on a captured charge, opened and resolved through {@code /_sim}.
 *
 * @param status {@code open}, {@code won} (the money comes back) or {@code lost}
 */
record Dispute(
        String id, String chargeId, long amount, String currency, String reason, String status, Instant createdAt) {

    static final String OPEN = "open";
    static final String WON = "won";
    static final String LOST = "lost";

    Dispute resolved(boolean won) {
        return new Dispute(id, chargeId, amount, currency, reason, won ? WON : LOST, createdAt);
    }

    boolean open() {
        return OPEN.equals(status);
    }
}
