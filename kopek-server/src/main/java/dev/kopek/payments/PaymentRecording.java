package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.MoneyMovement;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.ledger.Ledger;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentStatus;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.platform.LogContext;
import dev.kopek.platform.SqlPart;
import dev.kopek.psp.ChargeOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * A payment's part of phase 3: the PSP's outcome of the charge moves the payment itself (captured, authorized, or a
 * dead end); its answer is the payment, 201, stored with its event and its posting in one statement. Every final
 * outcome also goes through a batch of concurrent payments ({@link PhaseThreeBatches}), from arrays.
 */
@Component
class PaymentRecording implements BatchRecording<Payment> {

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
        PaymentStatus next = nextOf(outcome);
        return payments.fencedTransition(fence, payment.id(), next, recordedOf(outcome))
                .map(moved -> {
                    countOutcome(outcome);
                    return new Moved<>(
                            moved.payment(), next != PaymentStatus.UNKNOWN, moved.keyLeaseUntil(), moved.payment());
                });
    }

    /** The status the PSP's outcome moves the payment to. */
    static PaymentStatus nextOf(ChargeOutcome outcome) {
        return switch (outcome) {
            case ChargeOutcome.Succeeded s -> PaymentStatus.CAPTURED;
            case ChargeOutcome.Authorized a -> PaymentStatus.AUTHORIZED;
            case ChargeOutcome.Declined d -> PaymentStatus.DECLINED;
            case ChargeOutcome.Failed f -> PaymentStatus.FAILED;
            case ChargeOutcome.Unknown u -> PaymentStatus.UNKNOWN;
        };
    }

    /** What the payment's row records of the PSP's outcome beside its status. */
    static PaymentStore.Outcome recordedOf(ChargeOutcome outcome) {
        return switch (outcome) {
            case ChargeOutcome.Succeeded s -> new PaymentStore.Outcome(s.pspReference(), null, null, null);
            case ChargeOutcome.Authorized a ->
                new PaymentStore.Outcome(a.pspReference(), null, null, a.captureBefore());
            case ChargeOutcome.Declined d -> new PaymentStore.Outcome(d.pspReference(), d.declineCode(), null, null);
            case ChargeOutcome.Failed f -> new PaymentStore.Outcome(null, null, f.reason(), null);
            case ChargeOutcome.Unknown u -> new PaymentStore.Outcome(null, null, null, null);
        };
    }

    /** Every final outcome of a payment goes through a batch. */
    @Override
    public boolean batches(Payment payment, ChargeOutcome outcome) {
        return true;
    }

    @Override
    public PaymentId paymentOf(Payment payment) {
        return payment.id();
    }

    /** Every key fenced, every payment moved by the same compare-and-set ({@link PaymentStore#fencedTransitionEach}). */
    @Override
    public Map<UUID, Moved<Payment>> moveEach(SqlPart fence, List<Recordable<Payment>> requests) {
        Map<PaymentId, PaymentStore.Fenced> moved = payments.fencedTransitionEach(
                fence,
                requests.stream()
                        .map(r -> new PaymentStore.Transition(
                                r.resource().id(), nextOf(r.outcome()), recordedOf(r.outcome())))
                        .toList());
        Map<UUID, Moved<Payment>> settled = new HashMap<>();
        moved.forEach((id, fenced) ->
                settled.put(id.value(), new Moved<>(fenced.payment(), true, fenced.keyLeaseUntil(), fenced.payment())));
        return settled;
    }

    /** Each payment's 201 and event, and every capture at once and hold posted ({@link Ledger#atOnceEachPart}). */
    @Override
    public Answers answerEach(List<Moved<Payment>> moved) {
        List<Answered> answers = new ArrayList<>(moved.size());
        List<MoneyMovement> movements = new ArrayList<>(moved.size());
        for (Moved<Payment> m : moved) {
            Answer answer = answer(m.resource());
            answers.add(new Answered(201, answer.body(), List.of(answer.event())));
            answer.movement().ifPresent(movements::add);
        }
        List<SqlPart> parts = movements.isEmpty()
                ? List.of()
                : List.of(ledger.atOnceEachPart(movements, IdempotencyKeys.COMPLETED_EACH));
        return new Answers(answers, parts, Map.of());
    }

    @Override
    public void settled(Payment moved, ChargeOutcome outcome) {
        countOutcome(outcome);
        logSettled(moved);
    }

    void countOutcome(ChargeOutcome outcome) {
        meters.counter(
                        "kopek.payments.settled",
                        "outcome",
                        outcome.getClass().getSimpleName().toLowerCase(Locale.ROOT))
                .increment();
    }

    @Override
    public Settled settle(Moved<Payment> moved) {
        Payment recorded = moved.resource();
        Answer answer = answer(recorded);
        // The money it moved is posted by the answer's statement: a capture at once with its fee computed there (it
        // never had a hold, so none is read: reading one cost the closed loop 30 % under load), a hold as it is.
        List<SqlPart> postings = answer
                .movement()
                .map(movement -> movement.kind() == MoneyMovement.Kind.CAPTURED
                        ? ledger.capturedAtOncePart(movement, IdempotencyKeys.COMPLETED)
                        : ledger.openingPart(movement, IdempotencyKeys.COMPLETED))
                .stream()
                .toList();
        logSettled(recorded);
        return new Settled(
                201,
                answer.body(),
                answer.event(),
                new OperationStrategy.Effects(recorded, postings, List.of(), List.of()));
    }

    /**
     * A final outcome's answer: the payment rendered (its 201 body), the event that announces it, and the money it
     * moved (none for a decline or a failure), for a statement that stores and posts them.
     */
    record Answer(String body, BusinessEvent event, Optional<MoneyMovement> movement) {}

    Answer answer(Payment recorded) {
        String body = PaymentJson.render(recorded);
        BusinessEvent event = events.event(recorded, recorded.status().name().toLowerCase(Locale.ROOT), body);
        Optional<MoneyMovement> movement = switch (recorded.status()) {
            case CAPTURED ->
                Optional.of(events.movement(
                        recorded.id().value(),
                        MoneyMovement.Kind.CAPTURED,
                        recorded,
                        recorded.amounts().captured()));
            case AUTHORIZED ->
                Optional.of(events.movement(
                        recorded.id().value(),
                        MoneyMovement.Kind.AUTHORIZATION_HELD,
                        recorded,
                        recorded.amounts().authorized()));
            default -> Optional.empty(); // declined and failed moved no money
        };
        return new Answer(body, event, movement);
    }

    /** The one INFO line a payment leaves, from the request's own thread: everything else on its happy path is DEBUG. */
    void logSettled(Payment recorded) {
        LogContext.put(LogContext.PSP_REFERENCE, recorded.pspReference());
        log.info(
                "payment settled: merchant={} payment={} reference={} status={} psp_ref={}",
                recorded.merchant(),
                recorded.id(),
                recorded.reference(),
                recorded.status(),
                recorded.pspReference());
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
