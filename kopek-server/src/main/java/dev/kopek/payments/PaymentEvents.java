package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.MoneyMovement;
import dev.kopek.payments.domain.Payment;
import java.time.Clock;
import java.util.Locale;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * Announces payment changes inside the transaction that makes them (L9). Listeners (the outbox, the ledger) run
 * synchronously in that transaction, so an event exists exactly when its change committed.
 */
@Component
class PaymentEvents {

    private final ApplicationEventPublisher publisher;
    private final Clock clock;

    PaymentEvents(ApplicationEventPublisher publisher, Clock clock) {
        this.publisher = publisher;
        this.clock = clock;
    }

    /** {@code payment.<status>}, or the given suffix, with the payment as the API shows it now. */
    void changed(Payment payment, String what) {
        changed(payment, what, PaymentJson.render(payment));
    }

    /** With the representation already rendered for the answer, so the hot path renders it once. */
    void changed(Payment payment, String what, String rendered) {
        publisher.publishEvent(new BusinessEvent("payment." + what, "payment", payment.id().value(),
                payment.id().toString(), payment.merchant(), payment.version(), rendered, clock.instant()));
    }

    void changed(Payment payment) {
        changed(payment, payment.status().name().toLowerCase(Locale.ROOT));
    }

    void moved(UUID source, MoneyMovement.Kind kind, Payment payment, long amountMinor) {
        publisher.publishEvent(new MoneyMovement(source, kind, payment.merchant(), payment.id().value(),
                new dev.kopek.money.Money(amountMinor, payment.amount().currency()), clock.instant()));
    }
}
