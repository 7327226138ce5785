package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.jdbc.OperationStore;
import dev.kopek.platform.SqlPart;
import dev.kopek.support.Api;
import java.time.Clock;
import java.util.List;
import java.util.UUID;

/**
 * A capture or a void after its phase 1 — its amount reserved, the operation and its created event inserted, its key
 * claimed by attempt 1, in the one statement — for tests that record its phase 3 themselves.
 */
final class PendingOperations {

    private PendingOperations() {}

    /** An operation after phase 1, and the key whose attempt 1 owns its phase 3. */
    record Pending(PaymentOperation operation, ClientKey key) {}

    static Pending reserveAndInsert(
            OperationStore operations,
            IdempotencyKeys keys,
            EventStatements events,
            Clock clock,
            MerchantId merchant,
            PaymentId payment,
            OperationKind kind,
            long amount,
            SqlPart reserve,
            boolean finalCapture) {
        ClientKey ck = new ClientKey(merchant, kind.keySpace(), Api.newKey());
        UUID id = TimeOrderedIds.next(clock);
        PaymentOperation op = operations
                .reserveAndInsert(
                        IdempotencyKeys.freePart(ck),
                        reserve,
                        new OperationStore.NewOperation(
                                id,
                                payment,
                                merchant,
                                kind,
                                Money.of(amount, "EUR"),
                                finalCapture,
                                null,
                                ck.providerKey(id)),
                        inserted -> List.of(
                                keys.claimAfterPart(ck, "fingerprint", id, clock.instant(), "operation"),
                                events.append(created(inserted, clock), "claimed")))
                .orElseThrow();
        return new Pending(op, ck);
    }

    /** The created event of {@code pending}, as phase 1 writes it. */
    static BusinessEvent created(PaymentOperation pending, Clock clock) {
        return new BusinessEvent(
                pending.eventType(),
                pending.kind().apiName(),
                pending.id(),
                pending.kind().idPrefix() + "_" + pending.id(),
                pending.merchant(),
                pending.version(),
                "{}",
                clock.instant());
    }
}
