package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.money.PaymentId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentRequest;
import dev.kopek.payments.jdbc.PaymentStore;
import java.time.Clock;
import org.springframework.context.ApplicationContext;

/**
 * A payment after its phase 1 — its key claimed by attempt 1, its PENDING attempt and created event inserted in the
 * one statement — for tests that record its phase 3 themselves.
 */
final class PendingPayments {

    private PendingPayments() {}

    /** Phase 1 of {@code request} under the key {@code ck}, by the stores and the clock of {@code context}. */
    static Payment claimAndInsert(ApplicationContext context, ClientKey ck, PaymentRequest request) {
        PaymentStore store = context.getBean(PaymentStore.class);
        IdempotencyKeys keys = context.getBean(IdempotencyKeys.class);
        EventStatements events = context.getBean(EventStatements.class);
        Clock clock = context.getBean(Clock.class);
        PaymentId id = new PaymentId(TimeOrderedIds.next(clock));
        return store.claimAndInsertPending(
                        keys.claimPart(ck, "fingerprint", id.value(), clock.instant()),
                        id,
                        ck.merchant(),
                        request,
                        ck.key(),
                        ck.providerKey(id.value()),
                        row -> events.append(
                                new BusinessEvent(
                                        "payment.created",
                                        "payment",
                                        id.value(),
                                        id.toString(),
                                        ck.merchant(),
                                        0,
                                        "{}",
                                        clock.instant()),
                                "payment"))
                .orElseThrow();
    }
}
