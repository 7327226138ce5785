package dev.kopek.refunds;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.money.RefundId;
import dev.kopek.payments.domain.PaymentOperation;
import java.time.Clock;
import org.springframework.stereotype.Component;

/** Announces refund changes inside the transaction that makes them (L9). */
@Component
class RefundEvents {

    private final EventStatements events;
    private final Clock clock;

    RefundEvents(EventStatements events, Clock clock) {
        this.events = events;
        this.clock = clock;
    }

    void announce(PaymentOperation refund) {
        events.write(event(refund));
    }

    /** {@code refund.<status>} with the refund as the API shows it. */
    BusinessEvent event(PaymentOperation refund) {
        return new BusinessEvent(
                refund.eventType(),
                "refund",
                refund.id(),
                new RefundId(refund.id()).toString(),
                refund.merchant(),
                refund.version(),
                RefundJson.render(refund),
                clock.instant());
    }
}
