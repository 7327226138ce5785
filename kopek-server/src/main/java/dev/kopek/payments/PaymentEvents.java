package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.events.MoneyMovement;
import dev.kopek.events.RecordedEvent;
import dev.kopek.money.Money;
import dev.kopek.money.PrefixedId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Announces payment changes inside the transaction that makes them (L9): the event row is written by the outbox's
 * statement ({@link EventStatements}), on its own or as a part of the change's own statement, so an event exists
 * exactly when its change committed. A money movement is posted likewise: as a part of its change's statement
 * ({@link #movement}, for the ledger's statement parts), or, for a change made by several statements (a chargeback,
 * a refund's reservation in a transaction), published to the ledger's listener in that transaction ({@link #moved}).
 */
@Component
class PaymentEvents {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ApplicationEventPublisher publisher;
    private final EventStatements events;
    private final Clock clock;

    PaymentEvents(ApplicationEventPublisher publisher, EventStatements events, Clock clock) {
        this.publisher = publisher;
        this.events = events;
        this.clock = clock;
    }

    /** {@code payment.<status>}, or the given suffix, with the payment as the API shows it now. */
    void changed(Payment payment, String what) {
        changed(payment, what, PaymentJson.render(payment));
    }

    /** With the representation already rendered for the answer, so the hot path renders it once. */
    void changed(Payment payment, String what, String rendered) {
        events.write(event(payment, what, rendered));
    }

    /**
     * {@code payment.<what>} for a statement that writes it with its change ({@link EventStatements});
     * not published: see {@link #recorded}.
     */
    BusinessEvent event(Payment payment, String what, String rendered) {
        return new BusinessEvent(
                "payment." + what,
                "payment",
                payment.id().value(),
                payment.id().toString(),
                payment.merchant(),
                payment.version(),
                rendered,
                clock.instant());
    }

    /**
     * {@code payment.created} for an attempt about to be inserted, for a statement that writes it with the attempt
     * ({@link EventStatements}); not published: see {@link #recorded}.
     */
    BusinessEvent created(Payment pending) {
        return event(pending, "created", PaymentJson.render(pending));
    }

    /** Tells in-process observers of an event its own statement wrote (the outbox has it already). */
    void recorded(BusinessEvent event) {
        publisher.publishEvent(new RecordedEvent(event));
    }

    void changed(Payment payment) {
        changed(payment, payment.status().name().toLowerCase(Locale.ROOT));
    }

    /**
     * {@code capture.<status>} or {@code void.<status>}, for a statement that writes it with its change: a capture or
     * void is a resource of its own, with its own event sequence (its version), so a declined or unknown one is
     * announced like a successful one (L9).
     */
    BusinessEvent operationEvent(PaymentOperation op) {
        String publicId = PrefixedId.format(op.kind().idPrefix(), op.id());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", publicId);
        json.put("object", op.kind().apiName());
        json.put("payment_id", op.payment().toString());
        json.put("status", op.status().apiName());
        json.put("amount", op.amount());
        json.put("currency", op.currency().code());
        json.put("final", op.finalCapture());
        json.put("psp_reference", op.pspReference());
        json.put("failure_reason", op.failureReason());
        json.put("created_at", op.createdAt().toString());
        json.put("updated_at", op.updatedAt().toString());
        return new BusinessEvent(
                op.eventType(),
                op.kind().apiName(),
                op.id(),
                publicId,
                op.merchant(),
                op.version(),
                JSON.writeValueAsString(json),
                clock.instant());
    }

    void moved(UUID source, MoneyMovement.Kind kind, Payment payment, long amountMinor) {
        moved(movement(source, kind, payment, amountMinor));
    }

    /** {@code amountMinor} of the payment's money moved by {@code source}, now; for a statement that posts it. */
    MoneyMovement movement(UUID source, MoneyMovement.Kind kind, Payment payment, long amountMinor) {
        return new MoneyMovement(
                source,
                kind,
                payment.merchant(),
                payment.id().value(),
                new Money(amountMinor, payment.amount().currency()),
                clock.instant());
    }

    /** Posts {@code movement} in the transaction open now (the ledger listens, L8). */
    void moved(MoneyMovement movement) {
        publisher.publishEvent(movement);
    }
}
