package dev.kopek.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.idempotency.KeyStatus;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.support.Api;
import dev.kopek.support.PendingOperations;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/**
 * Phase 1 of a refund whose key is new is one statement (issue 25): the key must be free and the reservation must
 * fit, then the refund, the client's key stored with its 202, the run's own key opened for nobody, the
 * REFUND_RESERVED posting and {@code refund.pending} are written together. A key that exists, or a reservation that
 * does not fit, makes the statement write nothing at all.
 */
class RefundPhaseOneStatementTest extends LifecycleSupport {

    @Autowired
    IdempotencyKeys keys;

    @Autowired
    MeterRegistry meters;

    @Autowired
    ApplicationContext context;

    @Test
    void aNewKeyWritesEverythingInOneStatementAnExistingKeyOrAnOverdraftNothing() {
        Api api = newMerchant();
        PaymentId payment = PaymentId.parse(
                        charge(api, newReference(), 10_000).get("id").asString())
                .orElseThrow();
        PendingOperations phaseOne = PendingOperations.in(context);
        MerchantId merchant = phaseOne.merchantOf(payment);
        ClientKey ck = new ClientKey(merchant, OperationKind.REFUND.requestKeySpace(), Api.newKey());

        Optional<PaymentOperation> first = phaseOne.refundStatement(ck, payment, 4_000);
        Optional<PaymentOperation> again = phaseOne.refundStatement(ck, payment, 4_000);
        Optional<PaymentOperation> overdraft =
                phaseOne.refundStatement(new ClientKey(merchant, ck.operation(), Api.newKey()), payment, 6_001);

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

    private long count(String sql, UUID id) {
        return jdbc.sql(sql).param("id", id).query(Long.class).single();
    }
}
