package dev.kopek.simulator;

import java.time.Instant;

/**
 * Disputes, opened and resolved by the test harness: opening one takes the disputed amount back as a
 * chargeback, winning it returns the money as a chargeback reversal. One dispute per charge.
 */
final class DisputeDesk {
    static final String DEFAULT_REASON = "fraudulent";

    private final Simulation simulation;

    DisputeDesk(Simulation simulation) {
        this.simulation = simulation;
    }

    /**
     * Opens a dispute on a captured charge.
     *
     * @param amount null means everything captured and not refunded
     * @throws ApiRefusal 404 {@code charge_not_found}, 409 {@code charge_not_captured}, {@code already_disputed},
     *                    {@code amount_exceeds_disputable}, {@code charge_processing} or {@code charge_declined}
     */
    Dispute open(String chargeId, Long amount, String reason) {
        Simulation.Books books = simulation.books();
        ChargeAccount account = books.account(chargeId);
        Dispute dispute = account.atomically(() -> {
            long disputed = amount != null ? amount : account.refundable();
            String refusal = account.disputeRefusal(disputed);
            if (refusal != null) {
                throw ApiRefusal.conflict(refusal);
            }
            Instant now = simulation.now();
            Dispute opened = new Dispute(
                    Ids.next("dp_"),
                    chargeId,
                    disputed,
                    account.currency(),
                    reason == null ? DEFAULT_REASON : reason,
                    Dispute.OPEN,
                    now);
            account.dispute(opened);
            books.disputes().put(opened.id(), account);
            books.movements()
                    .record(
                            new MovementRecord(
                                    opened.id(),
                                    chargeId,
                                    MovementRecord.CHARGEBACK,
                                    disputed,
                                    account.currency(),
                                    null,
                                    MovementRecord.SUCCEEDED,
                                    now),
                            0);
            return opened;
        });
        simulation.publish(books, "dispute.opened", Json.disputeNode(dispute));
        return dispute;
    }

    /**
     * Closes an open dispute; a won one returns the money.
     *
     * @throws ApiRefusal 404 {@code dispute_not_found}, 409 {@code dispute_closed}
     */
    Dispute resolve(String disputeId, boolean won) {
        Simulation.Books books = simulation.books();
        ChargeAccount account = books.disputes().get(disputeId);
        if (account == null) {
            throw ApiRefusal.notFound("dispute_not_found");
        }
        Dispute dispute = account.atomically(() -> {
            Dispute current = account.dispute();
            if (!current.open()) {
                throw ApiRefusal.conflict("dispute_closed");
            }
            Dispute resolved = current.resolved(won);
            account.dispute(resolved);
            if (won) {
                books.movements()
                        .record(
                                new MovementRecord(
                                        resolved.id(),
                                        resolved.chargeId(),
                                        MovementRecord.CHARGEBACK_REVERSAL,
                                        resolved.amount(),
                                        resolved.currency(),
                                        null,
                                        MovementRecord.SUCCEEDED,
                                        simulation.now()),
                                0);
            }
            return resolved;
        });
        simulation.publish(books, "dispute." + dispute.status(), Json.disputeNode(dispute));
        return dispute;
    }
}
