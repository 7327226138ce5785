package dev.kopek.simulator;

import java.time.Instant;

/**
 * A charge that reached a result. The oracle's ledger: tests count these to learn how often money moved.
 *
 * @param status      {@code "succeeded"} (captured when made), {@code "authorized"} (made with
 *                    {@code "capture": false}, to capture later) or {@code "declined"}
 * @param declineCode why a declined charge was declined; {@code null} when it succeeded
 * @param reference   the client's optional reference; {@code null} when it sent none
 */
public record ChargeRecord(
        String id,
        String idempotencyKey,
        long amount,
        String currency,
        String paymentMethod,
        String reference,
        String status,
        String declineCode,
        Instant createdAt) {

    public static final String SUCCEEDED = "succeeded";
    public static final String DECLINED = "declined";
    public static final String AUTHORIZED = "authorized";

    /**
     * Only succeeded (captured) charges move money; a declined one is a result but not a movement, and
     * an authorization only reserves money until a capture moves it.
     */
    public boolean movedMoney() {
        return SUCCEEDED.equals(status);
    }
}
