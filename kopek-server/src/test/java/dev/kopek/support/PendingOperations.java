package dev.kopek.support;

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
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A capture, a void or a refund after its phase 1 — its amount reserved, the operation and its created event
 * inserted, its key claimed, in the one statement — for tests that judge that statement or record phase 3 themselves.
 * Written once, so that every such test runs the statement as the others do.
 */
public final class PendingOperations {

    private final OperationStore operations;
    private final Reservations reservations;
    private final IdempotencyKeys keys;
    private final EventStatements events;
    private final Ledger ledger;
    private final Clock clock;
    private final JdbcClient jdbc;

    private PendingOperations(ApplicationContext context) {
        this.operations = context.getBean(OperationStore.class);
        this.reservations = context.getBean(Reservations.class);
        this.keys = context.getBean(IdempotencyKeys.class);
        this.events = context.getBean(EventStatements.class);
        this.ledger = context.getBean(Ledger.class);
        this.clock = context.getBean(Clock.class);
        this.jdbc = context.getBean(JdbcClient.class);
    }

    /** Phase 1 with the stores, the clock and the database of {@code context}, the test's own. */
    public static PendingOperations in(ApplicationContext context) {
        return new PendingOperations(context);
    }

    /** An operation after phase 1, and the key whose attempt 1 owns its phase 3. */
    public record Pending(PaymentOperation operation, ClientKey key) {}

    /** Phase 1 of a capture of {@code amount} with a new key, claimed by attempt 1. */
    public Pending capture(PaymentId payment, long amount, boolean finalCapture) {
        MerchantId merchant = merchantOf(payment);
        ClientKey ck = new ClientKey(merchant, OperationKind.CAPTURE.keySpace(), Api.newKey());
        return new Pending(captureStatement(ck, payment, amount, finalCapture).orElseThrow(), ck);
    }

    /**
     * The one statement of a capture's phase 1 for the client's key {@code ck}: the capture, or nothing written when
     * the key exists or the reservation does not fit.
     */
    public Optional<PaymentOperation> captureStatement(
            ClientKey ck, PaymentId payment, long amount, boolean finalCapture) {
        return reserveAndInsert(
                ck,
                payment,
                OperationKind.CAPTURE,
                amount,
                reservations.capturePart(ck.merchant(), payment, amount, finalCapture, "key_free"),
                finalCapture);
    }

    /** Phase 1 of a void of the payment's {@code amount} with a new key, claimed by attempt 1. */
    public Pending voidOf(PaymentId payment, long amount) {
        MerchantId merchant = merchantOf(payment);
        ClientKey ck = new ClientKey(merchant, OperationKind.VOID.keySpace(), Api.newKey());
        SqlPart release = reservations.releasePart(merchant, payment, "key_free");
        return new Pending(
                reserveAndInsert(ck, payment, OperationKind.VOID, amount, release, false)
                        .orElseThrow(),
                ck);
    }

    /** Phase 1 of a refund: the client's new key answered, the run's key opened and taken over as attempt 1. */
    public Pending refund(PaymentId payment, long amount) {
        ClientKey ck = new ClientKey(merchantOf(payment), OperationKind.REFUND.requestKeySpace(), Api.newKey());
        PaymentOperation op = refundStatement(ck, payment, amount).orElseThrow();
        ClientKey run = runKey(op.id(), ck.merchant());
        if (keys.takeOver(keys.opened(run, op.id()), clock.instant()).orElse(0) != 1) {
            throw new IllegalStateException("the run's key of refund " + op.id() + " was not taken over as attempt 1");
        }
        return new Pending(op, run);
    }

    /**
     * The one statement of a refund's phase 1 for the client's key {@code ck}: the refund, the client's key answered
     * 202, the run's key opened for nobody, the REFUND_RESERVED posting and the created event; or nothing written when
     * the key exists or the reservation does not fit.
     */
    public Optional<PaymentOperation> refundStatement(ClientKey ck, PaymentId payment, long amount) {
        MerchantId merchant = ck.merchant();
        UUID id = TimeOrderedIds.next(clock);
        return operations.reserveAndInsert(
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
                        keys.openAfterPart(runKey(id, merchant), id, "operation"),
                        ledger.openingPart(
                                new MoneyMovement(
                                        id,
                                        MoneyMovement.Kind.REFUND_RESERVED,
                                        merchant,
                                        payment.value(),
                                        Money.of(amount, "EUR"),
                                        clock.instant()),
                                "operation"),
                        events.append(created(inserted), "claimed")));
    }

    /** The merchant a payment belongs to. */
    public MerchantId merchantOf(PaymentId payment) {
        return new MerchantId(jdbc.sql("SELECT merchant_id FROM payments WHERE id = :id")
                .param("id", payment.value())
                .query(UUID.class)
                .single());
    }

    /** Phase 1 of a capture or a void for the client's key {@code ck}: the key claimed by attempt 1. */
    private Optional<PaymentOperation> reserveAndInsert(
            ClientKey ck, PaymentId payment, OperationKind kind, long amount, SqlPart reserve, boolean finalCapture) {
        UUID id = TimeOrderedIds.next(clock);
        return operations.reserveAndInsert(
                IdempotencyKeys.freePart(ck),
                reserve,
                new OperationStore.NewOperation(
                        id,
                        payment,
                        ck.merchant(),
                        kind,
                        Money.of(amount, "EUR"),
                        finalCapture,
                        null,
                        ck.providerKey(id)),
                inserted -> List.of(
                        keys.claimAfterPart(ck, "fingerprint", id, clock.instant(), "operation"),
                        events.append(created(inserted), "claimed")));
    }

    /** The key a refund's runs take, one per refund. */
    private static ClientKey runKey(UUID refund, MerchantId merchant) {
        return new ClientKey(merchant, OperationKind.REFUND.keySpace(), refund.toString());
    }

    /** The created event of {@code pending}, as phase 1 writes it. */
    private BusinessEvent created(PaymentOperation pending) {
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
