package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.MoneyMovement;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.ledger.Ledger;
import dev.kopek.payments.OperationStrategy.Effects;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.jdbc.PaymentMoves;
import dev.kopek.platform.Db;
import dev.kopek.platform.SqlPart;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * The payment's part of a capture's, void's or refund's answer statement (phase 3's second): the payment's status
 * after the move, the event that announces it (which {@link OutcomeRecorder} writes with the operation's own), and
 * the postings of the money that moved — parts of that one statement, so that none of them is a round trip of its
 * own. The payment's row was locked by the move's statement,
 * so what is rendered here from it is what the statement writes.
 */
@Component
class PaymentEffects {

    private final PaymentMoves moves;
    private final PaymentEvents events;
    private final Ledger ledger;
    private final Clock clock;

    PaymentEffects(PaymentMoves moves, PaymentEvents events, Ledger ledger, Clock clock) {
        this.moves = moves;
        this.events = events;
        this.ledger = ledger;
        this.clock = clock;
    }

    /**
     * The move changed the payment's amounts: its status becomes what they call for ({@link Payment#paidStatus},
     * one more version), announced as {@code payment.<what>} ({@code payment.<status>} when {@code what} is null),
     * and {@code movements} are posted ({@code Ledger.computedPart}) with {@code outcome} if given (a refund's,
     * {@code Ledger.outcomePart}); all of it once the answer is stored, and the status move and {@code outcome} must
     * write.
     */
    Effects paid(Payment moved, String what, List<MoneyMovement> movements, Ledger.Required outcome) {
        Paid paid = paidEach(moved, what, movements);
        List<SqlPart> parts = new ArrayList<>();
        parts.add(moves.statusPart(moved, paid.after(), IdempotencyKeys.COMPLETED));
        if (!movements.isEmpty()) {
            parts.add(ledger.computedPart(movements, PaymentMoves.PAID));
        }
        List<String> required = new ArrayList<>(List.of(PaymentMoves.PAID));
        if (outcome != null) {
            parts.add(outcome.part());
            required.add(outcome.written());
        }
        return new Effects(paid.after(), parts, paid.events(), required);
    }

    /**
     * One operation's part of {@link #partsEach}: the payment as the move's statement left it ({@code locked}), after
     * the answer's statement ({@code after}; its status moved when {@code statusMoved}), the events that announce
     * it, the movements that close part of its hold ({@code held}) and a refund's outcome ({@code outcomes}).
     */
    record Paid(
            Payment locked,
            Payment after,
            boolean statusMoved,
            List<BusinessEvent> events,
            List<MoneyMovement> held,
            List<MoneyMovement> outcomes) {}

    /** {@link #paid}'s payment, event and movements, for a batch whose statement parts {@link #partsEach} builds. */
    Paid paidEach(Payment moved, String what, List<MoneyMovement> held) {
        Payment after = moved.changed(moved.paidStatus(), Db.micros(clock.instant()));
        BusinessEvent event = events.event(after, what == null ? statusWord(after) : what, PaymentJson.render(after));
        return new Paid(moved, after, true, List.of(event), held, List.of());
    }

    /** A refund the PSP confirmed, in a batch: the payment's status and event, and its outcome's posting. */
    Paid refundedEach(Payment moved, MoneyMovement outcome) {
        Paid paid = paidEach(moved, null, List.of());
        return new Paid(moved, paid.after(), true, paid.events(), List.of(), List.of(outcome));
    }

    /** A refund the PSP refused, in a batch: only its outcome's posting (the reservation goes back). */
    Paid releasedEach(Payment moved, MoneyMovement outcome) {
        return new Paid(moved, moved, false, List.of(), List.of(), List.of(outcome));
    }

    /** Parts of a batch's answer statement, and how many rows each CTE that must write has to yield. */
    record Parts(List<SqlPart> parts, Map<String, Integer> required) {}

    /**
     * {@link #paid} for a batch: parts of its answer statement that move each payment's status, post each movement
     * of a hold ({@link Ledger#heldEachPart}) and each refund's outcome ({@link Ledger#outcomeEachPart}) once its
     * operation's answer ({@code operations}, at the same index) is stored. The status moves and the outcomes must
     * each write.
     */
    Parts partsEach(List<UUID> operations, List<Paid> paid) {
        List<PaymentMoves.StatusMove> statuses = new ArrayList<>(paid.size());
        List<MoneyMovement> held = new ArrayList<>();
        List<MoneyMovement> outcomes = new ArrayList<>();
        for (int i = 0; i < paid.size(); i++) {
            Paid p = paid.get(i);
            if (p.statusMoved()) {
                statuses.add(new PaymentMoves.StatusMove(operations.get(i), p.locked(), p.after()));
            }
            held.addAll(p.held());
            outcomes.addAll(p.outcomes());
        }
        List<SqlPart> parts = new ArrayList<>(3);
        Map<String, Integer> required = new HashMap<>();
        if (!statuses.isEmpty()) {
            parts.add(moves.statusEachPart(statuses, IdempotencyKeys.COMPLETED_EACH));
            required.put(PaymentMoves.PAID, statuses.size());
        }
        if (!held.isEmpty()) {
            parts.add(ledger.heldEachPart(held, IdempotencyKeys.COMPLETED_EACH));
        }
        if (!outcomes.isEmpty()) {
            Ledger.Required posted = ledger.outcomeEachPart(outcomes, IdempotencyKeys.COMPLETED_EACH);
            parts.add(posted.part());
            required.put(posted.written(), outcomes.size());
        }
        return new Parts(parts, required);
    }

    /**
     * The move's statement set the payment's status already (a void): announced as {@code payment.<status>}, and
     * {@code movements} posted, once the answer is stored.
     */
    Effects announced(Payment after, List<MoneyMovement> movements) {
        BusinessEvent event = events.event(after, statusWord(after), PaymentJson.render(after));
        List<SqlPart> parts =
                movements.isEmpty() ? List.of() : List.of(ledger.computedPart(movements, IdempotencyKeys.COMPLETED));
        return new Effects(after, parts, List.of(event), List.of());
    }

    private static String statusWord(Payment payment) {
        return payment.status().name().toLowerCase(Locale.ROOT);
    }
}
