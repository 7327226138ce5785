package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.events.MoneyMovement;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentStatus;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.platform.ConnectionWait;
import dev.kopek.platform.LogContext;
import dev.kopek.platform.SqlPart;
import dev.kopek.psp.ChargeOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Phase 3 of a payment ("recording" its outcome; "settlement" means only the PSP's settlement file): one short
 * transaction, fenced by the attempt number (L4). It first locks the key row as its current
 * owner — a stale owner stops here and changes nothing — then moves the payment by compare-and-set and stores
 * the final answer, or marks the key as awaiting a result.
 */
@Component
class PaymentRecorder {

    private static final Logger log = LoggerFactory.getLogger(PaymentRecorder.class);

    private final IdempotencyKeys keys;
    private final PaymentStore payments;
    private final TransactionTemplate tx;
    private final ApplicationEventPublisher events;
    private final PaymentEvents paymentEvents;
    private final MeterRegistry meters;
    private final ConnectionWait connectionWait;
    private final EventStatements eventStatements;

    PaymentRecorder(
            IdempotencyKeys keys,
            PaymentStore payments,
            TransactionTemplate tx,
            ApplicationEventPublisher events,
            PaymentEvents paymentEvents,
            MeterRegistry meters,
            ConnectionWait connectionWait,
            EventStatements eventStatements) {
        this.keys = keys;
        this.payments = payments;
        this.tx = tx;
        this.events = events;
        this.paymentEvents = paymentEvents;
        this.meters = meters;
        this.connectionWait = connectionWait;
        this.eventStatements = eventStatements;
    }

    /**
     * Records {@code outcome} for {@code payment}. With {@code reviewReason} set, an unknown outcome is parked for
     * a person instead of waiting for reconciliation.
     */
    PaymentAnswer record(Payment payment, ClientKey ck, int attempt, ChargeOutcome outcome, String reviewReason) {
        try {
            // The PSP has answered: its money may have moved, so recording it waits for a connection, never fails
            // for want of one.
            PaymentAnswer answer = connectionWait.patiently(() -> tx.execute(status -> switch (outcome) {
                case ChargeOutcome.Succeeded s ->
                    finish(
                            payment,
                            ck,
                            attempt,
                            outcome,
                            PaymentStatus.CAPTURED,
                            new PaymentStore.Outcome(s.pspReference(), null, null, null));
                case ChargeOutcome.Authorized a ->
                    finish(
                            payment,
                            ck,
                            attempt,
                            outcome,
                            PaymentStatus.AUTHORIZED,
                            new PaymentStore.Outcome(a.pspReference(), null, null, a.captureBefore()));
                case ChargeOutcome.Declined d ->
                    finish(
                            payment,
                            ck,
                            attempt,
                            outcome,
                            PaymentStatus.DECLINED,
                            new PaymentStore.Outcome(d.pspReference(), d.declineCode(), null, null));
                case ChargeOutcome.Failed f ->
                    finish(
                            payment,
                            ck,
                            attempt,
                            outcome,
                            PaymentStatus.FAILED,
                            new PaymentStore.Outcome(null, null, f.reason(), null));
                case ChargeOutcome.Unknown u -> unknown(payment, ck, attempt, u, reviewReason);
            }));
            meters.counter(
                            "kopek.payments.settled",
                            "outcome",
                            outcome.getClass().getSimpleName().toLowerCase())
                    .increment();
            return answer;
        } catch (StaleAttempt stale) {
            log.warn(
                    "stale owner refused: payment={} key#={} attempt={} outcome={}",
                    payment.id(),
                    ck.hash(),
                    attempt,
                    outcome);
            throw stale;
        }
    }

    private static String resolutionOf(ChargeOutcome outcome) {
        return switch (outcome) {
            case ChargeOutcome.Succeeded s -> "captured";
            case ChargeOutcome.Authorized a -> "authorized";
            case ChargeOutcome.Declined d -> "failed";
            case ChargeOutcome.Failed f -> "failed";
            case ChargeOutcome.Unknown u -> throw new IllegalArgumentException("an unknown outcome settles nothing");
        };
    }

    /**
     * Moves the payment as the key's current owner (L4), fence and compare-and-set in one statement: a stale owner
     * stops here and changes nothing. Only when the statement moved nothing does a second read tell a stale owner
     * (the key is no longer this attempt's) from a payment outside {@code next}'s predecessors (a bug).
     */
    private Payment moveAsOwner(
            Payment payment,
            ClientKey ck,
            int attempt,
            ChargeOutcome outcome,
            PaymentStatus next,
            PaymentStore.Outcome recorded) {
        SqlPart fence = IdempotencyKeys.fencePart(ck, attempt);
        PaymentStore.Fenced moved = payments.fencedTransition(fence, payment.id(), next, recorded)
                .orElseGet(() -> {
                    if (keys.holdAsOwner(ck, attempt).isEmpty()) {
                        throw new StaleAttempt(ck, attempt);
                    }
                    throw new IllegalStateException(
                            "owner of " + ck + " found " + payment.id() + " outside the predecessors of " + next);
                });
        if (IdempotencyKeys.isParked(moved.keyLeaseUntil()) && !(outcome instanceof ChargeOutcome.Unknown)) {
            events.publishEvent(
                    new ParkedOutcomeRecorded("payment", payment.id().value(), resolutionOf(outcome)));
        }
        return moved.payment();
    }

    private PaymentAnswer finish(
            Payment payment,
            ClientKey ck,
            int attempt,
            ChargeOutcome charged,
            PaymentStatus next,
            PaymentStore.Outcome outcome) {
        Payment recorded = moveAsOwner(payment, ck, attempt, charged, next, outcome);
        String body = PaymentJson.render(recorded);
        // The final answer and its event in one statement: one round trip, and neither without the other.
        BusinessEvent event =
                paymentEvents.event(recorded, recorded.status().name().toLowerCase(java.util.Locale.ROOT), body);
        if (!payments.completeWithEvent(
                keys.completePart(ck, attempt, 201, body), eventStatements.append(event, "completed"))) {
            throw new StaleAttempt(ck, attempt);
        }
        paymentEvents.recorded(event);
        switch (recorded.status()) {
            case CAPTURED ->
                paymentEvents.moved(
                        recorded.id().value(),
                        MoneyMovement.Kind.CAPTURED,
                        recorded,
                        recorded.amounts().captured());
            case AUTHORIZED ->
                paymentEvents.moved(
                        recorded.id().value(),
                        MoneyMovement.Kind.AUTHORIZATION_HELD,
                        recorded,
                        recorded.amounts().authorized());
            default -> {
                // declined and failed moved no money
            }
        }
        LogContext.put(LogContext.PSP_REFERENCE, recorded.pspReference());
        // The one INFO line a payment leaves: everything else on its happy path is DEBUG.
        log.info(
                "payment settled: merchant={} payment={} reference={} key#={} attempt={} status={} psp_ref={}",
                recorded.merchant(),
                recorded.id(),
                recorded.reference(),
                ck.hash(),
                attempt,
                recorded.status(),
                recorded.pspReference());
        return new PaymentAnswer.Final(201, body, false);
    }

    private PaymentAnswer unknown(
            Payment payment, ClientKey ck, int attempt, ChargeOutcome.Unknown unknown, String reviewReason) {
        Payment unknownNow = moveAsOwner(
                payment, ck, attempt, unknown, PaymentStatus.UNKNOWN, new PaymentStore.Outcome(null, null, null, null));
        // The PSP waits for the customer (3-D Secure): the merchant learns what to do; the attempt stays live.
        Payment marked = unknown.nextAction() == null
                ? unknownNow
                : payments.requireAction(payment.id(), PaymentJson.nextAction(unknown.nextAction()));
        boolean marking = reviewReason == null ? keys.awaitResult(ck, attempt) : keys.park(ck, attempt);
        if (!marking) {
            throw new StaleAttempt(ck, attempt);
        }
        if (marked.requiresAction() && !payment.requiresAction()) {
            paymentEvents.changed(marked, "requires_action");
        } else if (payment.status() != PaymentStatus.UNKNOWN) {
            paymentEvents.changed(marked);
        }
        if (reviewReason != null) {
            events.publishEvent(new ManualReviewRequired(payment.id(), payment.merchant(), reviewReason));
        }
        log.warn(
                "payment outcome unknown: merchant={} payment={} key#={} attempt={} reason={} review={}",
                payment.merchant(),
                payment.id(),
                ck.hash(),
                attempt,
                unknown.reason(),
                reviewReason != null);
        return new PaymentAnswer.Processing(marked);
    }
}
