package dev.kopek.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.events.MoneyMovement;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.idempotency.KeyStatus;
import dev.kopek.ledger.Ledger;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.jdbc.OperationStore;
import dev.kopek.payments.jdbc.Reservations;
import dev.kopek.support.Api;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Phase 1 of a refund whose key is new is one statement (issue 25): the key must be free and the reservation must
 * fit, then the refund, the client's key stored with its 202, the run's own key opened for nobody, the
 * REFUND_RESERVED posting and {@code refund.pending} are written together. A key that exists, or a reservation that
 * does not fit, makes the statement write nothing at all.
 */
class RefundPhaseOneStatementTest extends LifecycleSupport {

    @Autowired
    OperationStore operations;

    @Autowired
    Reservations reservations;

    @Autowired
    IdempotencyKeys keys;

    @Autowired
    EventStatements events;

    @Autowired
    Ledger ledger;

    @Autowired
    MeterRegistry meters;

    @Test
    void aNewKeyWritesEverythingInOneStatementAnExistingKeyOrAnOverdraftNothing() {
        Api api = newMerchant();
        PaymentId payment = PaymentId.parse(
                        charge(api, newReference(), 10_000).get("id").asString())
                .orElseThrow();
        MerchantId merchant = merchantOf(payment);
        ClientKey ck = new ClientKey(merchant, OperationKind.REFUND.requestKeySpace(), Api.newKey());

        Optional<PaymentOperation> first = phaseOne(ck, merchant, payment, 4_000);
        Optional<PaymentOperation> again = phaseOne(ck, merchant, payment, 4_000);
        Optional<PaymentOperation> overdraft =
                phaseOne(new ClientKey(merchant, ck.operation(), Api.newKey()), merchant, payment, 6_001);

        assertThat(first).hasValueSatisfying(op -> assertThat(op.amount()).isEqualTo(4_000));
        assertThat(again).as("the key exists: nothing written").isEmpty();
        assertThat(overdraft).as("does not fit: nothing written").isEmpty();
        UUID refund = first.orElseThrow().id();
        assertThat(amount(payment(api, payment.toString()), "amount_refund_pending"))
                .as("reserved once")
                .isEqualTo(4_000);
        assertThat(keys.find(ck)).hasValueSatisfying(key -> {
            assertThat(key.status()).isEqualTo(KeyStatus.COMPLETED);
            assertThat(key.responseCode()).isEqualTo(202);
            assertThat(key.resourceId()).isEqualTo(refund);
        });
        assertThat(keys.findUnfinishedByResource(OperationKind.REFUND.keySpace(), refund))
                .hasValueSatisfying(run -> assertThat(run.attempt()).isZero());
        assertThat(count(
                        "SELECT count(*) FROM ledger_transactions WHERE payment_id = :id AND kind = 'REFUND_RESERVED'",
                        payment.value()))
                .isEqualTo(1);
        assertThat(count("SELECT count(*) FROM outbox WHERE resource_id = :id", refund))
                .isEqualTo(1);
        assertThat(count("SELECT count(*) FROM payment_operations WHERE payment_id = :id", payment.value()))
                .isEqualTo(1);
    }

    /**
     * The API takes this statement for a new key: the posting is there, and the ledger's listener (which counts what
     * it posts in a transaction) never saw it.
     */
    @Test
    void aRefundThroughTheApiIsPostedByThePhaseOneStatement() {
        Api api = newMerchant();
        String payment = charge(api, newReference(), 10_000).get("id").asString();
        double before = postedInTransactions();

        assertThat(refund(api, payment, 2_500).status()).isEqualTo(202);

        assertThat(count(
                        "SELECT count(*) FROM ledger_transactions WHERE payment_id = :id AND kind = 'REFUND_RESERVED'",
                        PaymentId.parse(payment).orElseThrow().value()))
                .isEqualTo(1);
        assertThat(postedInTransactions()).isEqualTo(before);
    }

    private double postedInTransactions() {
        return meters.counter("kopek.ledger.postings", "kind", "refund_reserved", "outcome", "posted")
                .count();
    }

    private Optional<PaymentOperation> phaseOne(ClientKey ck, MerchantId merchant, PaymentId payment, long amount) {
        UUID id = TimeOrderedIds.next(clock());
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
                pending -> List.of(
                        keys.answeredAfterPart(ck, "fingerprint", id, clock().instant(), "operation", 202, "{}"),
                        keys.openAfterPart(
                                new ClientKey(merchant, OperationKind.REFUND.keySpace(), id.toString()),
                                id,
                                "operation"),
                        ledger.openingPart(
                                new MoneyMovement(
                                        id,
                                        MoneyMovement.Kind.REFUND_RESERVED,
                                        merchant,
                                        payment.value(),
                                        Money.of(amount, "EUR"),
                                        clock().instant()),
                                "operation"),
                        events.append(
                                new BusinessEvent(
                                        pending.eventType(),
                                        "refund",
                                        pending.id(),
                                        "re_" + pending.id(),
                                        merchant,
                                        pending.version(),
                                        "{}",
                                        clock().instant()),
                                "claimed")));
    }

    private MerchantId merchantOf(PaymentId payment) {
        return new MerchantId(jdbc.sql("SELECT merchant_id FROM payments WHERE id = :id")
                .param("id", payment.value())
                .query(UUID.class)
                .single());
    }

    private long count(String sql, UUID id) {
        return jdbc.sql(sql).param("id", id).query(Long.class).single();
    }
}
