package dev.kopek.simulation;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Everything the auditor judges, as plain values: Kopek's rows for one simulation run's merchants, the PSP's own
 * record of that run (the oracle), and what the driver saw over HTTP. The auditor never queries anything itself,
 * so a test can hand it a world that breaks exactly one law.
 */
record World(
        Instant now,
        List<PaymentRow> payments,
        List<OperationRow> operations,
        List<RefundRow> refunds,
        List<DisputeRow> disputes,
        List<ReviewRow> reviews,
        List<EventRow> events,
        List<LedgerEntry> ledger,
        List<NotificationRow> notifications,
        List<PspCharge> pspCharges,
        List<PspMovement> pspMovements,
        List<Observation> observations,
        List<Finding> driverFindings) {

    /** A payment attempt as Kopek stores it (statuses in upper case, as in the database). */
    record PaymentRow(
            UUID id,
            UUID merchant,
            String reference,
            String status,
            long amount,
            long authorized,
            long captured,
            long capturePending,
            long released,
            long refunded,
            long refundPending,
            long disputed,
            String pspReference,
            String providerKey,
            long version,
            Instant captureBefore) {}

    /** A capture or void (or, once the pipeline is one, any operation on a payment). */
    record OperationRow(
            UUID id,
            UUID payment,
            UUID merchant,
            String kind,
            long amount,
            String status,
            long version,
            String pspReference,
            String providerKey,
            String failureReason) {}

    record RefundRow(
            UUID id,
            UUID payment,
            UUID merchant,
            long amount,
            String status,
            long version,
            String pspReference,
            String providerKey,
            String failureReason) {}

    record DisputeRow(
            UUID id, UUID payment, UUID merchant, String pspDisputeId, long amount, String status, long version) {}

    /** A manual-review item: a person must decide (or has decided) about {@code subjectId} of kind {@code subject}. */
    record ReviewRow(UUID id, UUID payment, String subject, UUID subjectId, boolean open) {}

    List<ReviewRow> openReviews() {
        return reviews.stream().filter(ReviewRow::open).toList();
    }

    /** One outbox row, in log order. */
    record EventRow(
            long logPosition,
            String type,
            String resourceType,
            UUID resourceId,
            UUID merchant,
            long sequence,
            String envelope) {}

    /** One journal entry with its transaction's header fields. */
    record LedgerEntry(
            UUID transaction,
            UUID payment,
            String kind,
            UUID reverses,
            String accountType,
            String side,
            long amount,
            String currency) {}

    /** A PSP notification Kopek stored; {@code outcome} null while it waits. */
    record NotificationRow(String eventId, String type, String pspReference, String outcome) {}

    /** A charge or authorization the PSP decided. */
    record PspCharge(String id, String providerKey, String reference, long amount, String status) {}

    /** A money movement at the PSP (charge, authorization, capture, void, refund, chargeback, reversal). */
    record PspMovement(String id, String chargeId, String type, long amount, String providerKey, String status) {}

    /** A status the driver saw for a payment or refund, in the order it saw them. */
    record Observation(String objectId, String status) {}

    /** Something the driver saw over HTTP that no law allows (a 5xx, a cross-merchant leak, a refused decision). */
    record Finding(String law, String message) {}
}
