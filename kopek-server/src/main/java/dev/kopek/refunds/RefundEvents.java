package dev.kopek.refunds;

import dev.kopek.events.BusinessEvent;
import dev.kopek.refunds.domain.Refund;
import java.time.Clock;
import java.util.Locale;
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

    Refund announce(Refund refund) {
        publisher.publishEvent(new BusinessEvent("refund." + refund.status().name().toLowerCase(Locale.ROOT),
                "refund", refund.id().value(), refund.id().toString(), refund.merchant(), refund.version(),
                RefundJson.render(refund), clock.instant()));
        return refund;
    }
}
