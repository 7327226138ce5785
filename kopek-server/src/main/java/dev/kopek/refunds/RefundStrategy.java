package dev.kopek.refunds;

import dev.kopek.events.BusinessEvent;
import dev.kopek.payments.OperationStrategy;
import dev.kopek.payments.PaymentBalances;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.platform.SqlPart;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * A refund: the PSP's confirmation is recorded and posted whatever the payment's state (an overlap with a
 * chargeback goes to a person); a refusal gives the reservation back. Its run's key stores the refund as the
 * final answer, which no client reads: the client's own key keeps the 202 of phase 1.
 */
@Component
class RefundStrategy implements OperationStrategy {

    private final PaymentBalances balances;
    private final RefundEvents events;

    RefundStrategy(PaymentBalances balances, RefundEvents events) {
        this.balances = balances;
        this.events = events;
    }

    @Override
    public OperationKind kind() {
        return OperationKind.REFUND;
    }

    @Override
    public SqlPart paymentPart(PaymentOperation done) {
        return balances.refundPart(done);
    }

    @Override
    public Effects effects(PaymentOperation done, Payment moved) {
        return balances.refundEffects(done, moved);
    }

    /** A refund's outcome, confirmed or refused, goes through a batch. */
    @Override
    public Optional<Batched> batched(PaymentOperation done) {
        return balances.refundBatched(done);
    }

    @Override
    public BusinessEvent event(PaymentOperation refund) {
        return events.event(refund);
    }

    @Override
    public StoredAnswer answer(PaymentOperation refund, Payment payment) {
        return new StoredAnswer(200, RefundJson.render(refund));
    }

    /** The client's 202 with the pending refund, stored under its key in phase 1. */
    @Override
    public Optional<StoredAnswer> accepted(PaymentOperation pending) {
        return Optional.of(new StoredAnswer(202, RefundJson.render(pending)));
    }
}
