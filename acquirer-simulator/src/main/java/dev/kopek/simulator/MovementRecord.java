package dev.kopek.simulator;

import java.time.Instant;

/**
 * One attempt to move (or reserve, or release) money at the acquirer, as the oracle records it.
 *
 * @param id             the id of the object that moved the money: the charge ({@code ch_…}) for types
 *                       charge and authorization, else the capture, void, refund or dispute id
 * @param type           {@code charge} (captured when made), {@code authorization}, {@code capture},
 *                       {@code void}, {@code refund}, {@code chargeback} or {@code chargeback_reversal}
 * @param amount         minor units; for a void the amount released
 * @param idempotencyKey the key of the request that caused it; {@code null} for disputes
 * @param status         {@code succeeded} or {@code declined}
 * @param createdAt      when it happened on the simulator clock; its UTC date is the settlement value date
 */
public record MovementRecord(
        String id,
        String chargeId,
        String type,
        long amount,
        String currency,
        String idempotencyKey,
        String status,
        Instant createdAt) {

    public static final String CHARGE = "charge";
    public static final String AUTHORIZATION = "authorization";
    public static final String CAPTURE = "capture";
    public static final String VOID = "void";
    public static final String REFUND = "refund";
    public static final String CHARGEBACK = "chargeback";
    public static final String CHARGEBACK_REVERSAL = "chargeback_reversal";
    public static final String SUCCEEDED = "succeeded";
    public static final String DECLINED = "declined";

    public boolean succeeded() {
        return SUCCEEDED.equals(status);
    }
}
