package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.MoneyMovement;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.ledger.Ledger;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentStatus;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.platform.LogContext;
import dev.kopek.platform.SqlPart;
import dev.kopek.psp.ChargeOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * A payment's part of phase 3: the PSP's outcome of the charge moves the payment itself (captured, authorized, or a
 * dead end); its answer is the payment, 201, stored with its event and its posting in one statement.
 */
@Component
class PaymentRecording implements Recording<Payment> {

    private static final Logger log = LoggerFactory.getLogger(PaymentRecording.class);

    private final PaymentStore payments;
    private final PaymentEvents events;
    private final Ledger ledger;
    private final MeterRegistry meters;

    PaymentRecording(PaymentStore payments, PaymentEvents events, Ledger ledger, MeterRegistry meters) {
        this.payments = payments;
        this.events = events;
        this.ledger = ledger;
        this.meters = meters;
    }

    @Override
    public String subject(Payment payment) {
        return "payment";
    }

    @Override
    public UUID subjectId(Payment payment) {
        return payment.id().value();
    }

    @Override
    public Optional<Moved<Payment>> move(Payment payment, SqlPart fence, ChargeOutcome outcome) {
        PaymentStatus next = switch (outcome) {
            case ChargeOutcome.Succeeded s -> PaymentStatus.CAPTURED;
            case ChargeOutcome.Authorized a -> PaymentStatus.AUTHORIZED;
            case ChargeOutcome.Declined d -> PaymentStatus.DECLINED;
            case ChargeOutcome.Failed f -> PaymentStatus.FAILED;
            case ChargeOutcome.Unknown u -> PaymentStatus.UNKNOWN;
        };
        PaymentStore.Outcome recorded = switch (outcome) {
            case ChargeOutcome.Succeeded s -> new PaymentStore.Outcome(s.pspReference(), null, null, null);
            case ChargeOutcome.Authorized a ->
                new PaymentStore.Outcome(a.pspReference(), null, null, a.captureBefore());
            case ChargeOutcome.Declined d -> new PaymentStore.Outcome(d.pspReference(), d.declineCode(), null, null);
            case ChargeOutcome.Failed f -> new PaymentStore.Outcome(null, null, f.reason(), null);
            case ChargeOutcome.Unknown u -> new PaymentStore.Outcome(null, null, null, null);
        };
        return payments.fencedTransition(fence, payment.id(), next, recorded).map(moved -> {
            countOutcome(outcome);
            return new Moved<>(moved.payment(), next != PaymentStatus.UNKNOWN, moved.keyLeaseUntil(), moved.payment());
        });
    }

    private void countOutcome(ChargeOutcome outcome) {
        meters.counter(
                        "kopek.payments.settled",
                        "outcome",
                        outcome.getClass().getSimpleName().toLowerCase(Locale.ROOT))
                .increment();
    }

    @Override
    public Settled settle(Moved<Payment> moved) {
        Payment recorded = moved.resource();
        String body = PaymentJson.render(recorded);
        BusinessEvent event = events.event(recorded, recorded.status().name().toLowerCase(Locale.ROOT), body);
        // The money it moved is posted by the answer's statement: a capture at once with its fee computed there (it
        // never had a hold, so none is read: reading one cost the closed loop 30 % under load), a hold as it is.
        List<SqlPart> postings = switch (recorded.status()) {
            case CAPTURED ->
                List.of(ledger.capturedAtOncePart(
                        events.movement(
                                recorded.id().value(),
                                MoneyMovement.Kind.CAPTURED,
                                recorded,
                                recorded.amounts().captured()),
                        IdempotencyKeys.COMPLETED));
            case AUTHORIZED ->
                List.of(ledger.openingPart(
                        events.movement(
                                recorded.id().value(),
                                MoneyMovement.Kind.AUTHORIZATION_HELD,
                                recorded,
                                recorded.amounts().authorized()),
                        IdempotencyKeys.COMPLETED));
            default -> List.of(); // declined and failed moved no money
        };
        LogContext.put(LogContext.PSP_REFERENCE, recorded.pspReference());
        // The one INFO line a payment leaves: everything else on its happy path is DEBUG.
        log.info(
                "payment settled: merchant={} payment={} reference={} status={} psp_ref={}",
                recorded.merchant(),
                recorded.id(),
                recorded.reference(),
                recorded.status(),
                recorded.pspReference());
        return new Settled(201, body, event, new OperationStrategy.Effects(recorded, postings, List.of(), List.of()));
    }

    @Override
    public Payment unknown(Payment payment, Payment unknownNow, ChargeOutcome outcome) {
        ChargeOutcome.Unknown unknown = (ChargeOutcome.Unknown) outcome;
        // The PSP waits for the customer (3-D Secure): the merchant learns what to do; the attempt stays live.
        Payment marked = unknown.nextAction() == null
                ? unknownNow
                : payments.requireAction(payment.id(), PaymentJson.nextAction(unknown.nextAction()));
        if (marked.requiresAction() && !payment.requiresAction()) {
            events.changed(marked, "requires_action");
        } else if (payment.status() != PaymentStatus.UNKNOWN) {
            events.changed(marked);
        }
        log.warn(
                "payment outcome unknown: merchant={} payment={} reason={}",
                payment.merchant(),
                payment.id(),
                unknown.reason());
        return marked;
    }

    @Override
    public ManualReviewRequired review(Payment payment, String reason) {
        return new ManualReviewRequired(payment.id(), payment.merchant(), reason);
    }
}
