package dev.kopek.chaos;

import java.util.List;
import java.util.UUID;

/**
 * Everything the auditor judges, gathered after the run from three independent records: the simulator's (the
 * PSP's truth), Kopek's database and a consumer of the Kafka topic, plus what the clients were answered.
 */
record Evidence(
        List<PspCharge> pspCharges,
        List<PspMovement> pspMovements,
        List<Payment> payments,
        List<Operation> operations,
        List<Dispute> disputes,
        List<Review> reviews,
        List<LedgerTotals> ledgerTotals,
        List<String> unbalancedLedgerTransactions,
        List<StuckKey> stuckKeys,
        List<OutboxEvent> outbox,
        List<TopicEvent> topic,
        List<ClientAnswers> answers) {

    /** A charge as the simulator recorded it: which key made it and for which intent. */
    record PspCharge(String id, String key, String reference, String status) {}

    /** One attempt to move money at the PSP ({@code /_sim/movements}). */
    record PspMovement(String id, String chargeId, String type, long amount, String key, boolean succeeded) {}

    /** A payment row; {@code providerKey} is the key Kopek sent to the PSP. */
    record Payment(
            UUID id,
            String reference,
            String providerKey,
            String pspReference,
            String status,
            long amount,
            long authorized,
            long captured,
            long refunded,
            long refundPending,
            long capturePending,
            long disputed,
            long version) {}

    /** A capture, void or refund row ({@code kind} capture | void | refund). */
    record Operation(UUID id, UUID paymentId, String kind, long amount, String status, String providerKey) {}

    record Dispute(String pspDisputeId, UUID paymentId, long amount, String status) {}

    /** A manual-review item; {@code subjectId} is the payment, capture, void or refund it parks. */
    record Review(UUID paymentId, String subject, UUID subjectId, boolean open) {}

    /** Ledger totals of one payment, each net of its reversals. */
    record LedgerTotals(UUID paymentId, long captured, long refunded, long chargedBack) {}

    /** An idempotency key that is still running or waiting for an outcome. */
    record StuckKey(String operation, String key, UUID resourceId, String status) {}

    /** A state change as Kopek recorded it in the outbox. */
    record OutboxEvent(String eventId, String resourceType, String publicId, long sequence) {}

    /** A record read from the topic, in partition order; {@code status} is the resource's status in it. */
    record TopicEvent(String eventId, String publicId, long sequence, int partition, long offset, String status) {}

    /** Every HTTP answer the clients got for one idempotency key, in the order they got them. */
    record ClientAnswers(String operation, String key, List<Answer> answers) {}

    record Answer(int status, boolean replayed, String body) {}
}
