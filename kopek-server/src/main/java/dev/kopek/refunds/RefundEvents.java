package dev.kopek.refunds;

import dev.kopek.events.BusinessEvent;
import dev.kopek.money.RefundId;
import dev.kopek.payments.domain.PaymentOperation;
import java.time.Clock;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/** Announces refund changes inside the transaction that makes them (L9). */
@Component
class RefundEvents {

    private final ApplicationEventPublisher publisher;
    private final Clock clock;

    RefundEvents(ApplicationEventPublisher publisher, Clock clock) {
        this.publisher = publisher;
        this.clock = clock;
    }

    void announce(PaymentOperation refund) {
        publisher.publishEvent(new BusinessEvent(
                refund.eventType(),
                "refund",
                refund.id(),
                new RefundId(refund.id()).toString(),
                refund.merchant(),
                refund.version(),
                RefundJson.render(refund),
                clock.instant()));
    }
}
