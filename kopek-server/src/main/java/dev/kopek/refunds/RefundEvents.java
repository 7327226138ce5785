package dev.kopek.refunds;

import dev.kopek.events.BusinessEvent;
import dev.kopek.money.RefundId;
import dev.kopek.payments.domain.PaymentOperation;
import java.time.Clock;
import org.springframework.stereotype.Component;

/** The event that announces a refund's state (L9), written by the pipeline with the change it announces. */
@Component
class RefundEvents {

    private final Clock clock;

    RefundEvents(Clock clock) {
        this.clock = clock;
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
