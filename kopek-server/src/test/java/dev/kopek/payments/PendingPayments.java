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

/**
 * A payment after its phase 1 — its key claimed by attempt 1, its PENDING attempt and created event inserted in the
 * one statement — for tests that record its phase 3 themselves.
 */
final class PendingPayments {

    private PendingPayments() {}

    static Payment claimAndInsert(
            PaymentStore store,
            IdempotencyKeys keys,
            EventStatements events,
            Clock clock,
            ClientKey ck,
            PaymentRequest request) {
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
