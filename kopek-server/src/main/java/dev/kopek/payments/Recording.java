package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.payments.domain.Payment;
import dev.kopek.platform.SqlPart;
import dev.kopek.psp.ChargeOutcome;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * What phase 3 does that differs by kind, for a resource of type {@code R}: a payment ({@link PaymentRecording}), or
 * a capture, void or refund ({@link OperationRecording}). Everything else — the transaction, the fence, the one rule
 * for a parked outcome, the stored answer written with its event, the unknown's key marks and review — is
 * {@link OutcomeRecorder}'s, written once. Each method runs inside phase 3's transaction.
 */
interface Recording<R> {

    /** The subject of a review: {@code payment}, {@code capture}, {@code void} or {@code refund}. */
    String subject(R resource);

    UUID subjectId(R resource);

    /**
     * Moves the resource to what {@code outcome} means, as the key's owner: {@code fence} (the idempotency module's
     * CTE) and the compare-and-set in one statement. Empty when nothing moved: a stale owner, or a bug.
     */
    Optional<Moved<R>> move(R resource, SqlPart fence, ChargeOutcome outcome);

    /**
     * A final move's answer to store, the event written with it, and the rest of its effects on the payment and the
     * ledger, written in the same statement.
     */
    Settled settle(Moved<R> moved);

    /**
     * An unknown move: announces it when it changed the resource, and gives the payment as the 202 shows it.
     * {@code before} is the resource as the attempt read it.
     */
    Payment unknown(R before, R moved, ChargeOutcome outcome);

    /** The review a person must decide, for an unknown outcome past the PSP's key window. */
    ManualReviewRequired review(R resource, String reason);

    /**
     * What one statement moved: the resource after the move, whether the move is final (a stored answer follows)
     * rather than unknown, the key's lease as the fence locked it (the parking mark says a person waits), and the
     * payment as that statement left it, locked (null when it did not move the payment).
     */
    record Moved<R>(R resource, boolean settled, Instant keyLeaseUntil, Payment payment) {}

    /**
     * A final outcome's stored answer and the event that announces it, written in one statement with the rest of
     * the outcome's {@code effects}.
     */
    record Settled(int status, String body, BusinessEvent event, OperationStrategy.Effects effects) {

        Settled(int status, String body, BusinessEvent event) {
            this(status, body, event, OperationStrategy.Effects.NONE);
        }
    }
}
