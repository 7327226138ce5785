package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.events.MoneyMovement;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.ledger.Ledger;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.jdbc.OperationStore;
import dev.kopek.payments.jdbc.Reservations;
import dev.kopek.platform.SqlPart;
import dev.kopek.support.Api;
import java.time.Clock;
import java.util.List;
import java.util.UUID;

/**
 * A capture, a void or a refund after its phase 1 — its amount reserved, the operation and its created event inserted, its key
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

    /** Phase 1 of a refund: the client's key answered, the run's key opened and taken over as attempt 1. */
    static Pending refund(
            OperationStore operations,
            IdempotencyKeys keys,
            EventStatements events,
            Ledger ledger,
            Reservations reservations,
            Clock clock,
            MerchantId merchant,
            PaymentId payment,
            long amount) {
        ClientKey ck = new ClientKey(merchant, OperationKind.REFUND.requestKeySpace(), Api.newKey());
        UUID id = TimeOrderedIds.next(clock);
        ClientKey run = new ClientKey(merchant, OperationKind.REFUND.keySpace(), id.toString());
        PaymentOperation op = operations
                .reserveAndInsert(
                        IdempotencyKeys.freePart(ck),
                        reservations.refundPart(merchant, payment, amount, "key_free"),
                        new OperationStore.NewOperation(
                                id,
                                payment,
                                merchant,
                                OperationKind.REFUND,
                                Money.of(amount, "EUR"),
                                false,
                                null,
                                ck.providerKey(id)),
                        inserted -> List.of(
                                keys.answeredAfterPart(ck, "fingerprint", id, clock.instant(), "operation", 202, "{}"),
                                keys.openAfterPart(run, id, "operation"),
                                ledger.openingPart(
                                        new MoneyMovement(
                                                id,
                                                MoneyMovement.Kind.REFUND_RESERVED,
                                                merchant,
                                                payment.value(),
                                                Money.of(amount, "EUR"),
                                                clock.instant()),
                                        "operation"),
                                events.append(created(inserted, clock), "claimed")))
                .orElseThrow();
        if (keys.takeOver(keys.opened(run, id), clock.instant()).orElse(0) != 1) {
            throw new IllegalStateException("the run's key of refund " + id + " was not taken over as attempt 1");
        }
        return new Pending(op, run);
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
