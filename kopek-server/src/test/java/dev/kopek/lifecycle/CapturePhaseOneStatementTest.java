package dev.kopek.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.support.Api;
import dev.kopek.support.PendingOperations;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/**
 * Phase 1 of a capture whose key is new is one statement: the key must be free, the reservation must fit, then the
 * capture, the key's claim and the capture's event are written together. A key that exists already makes the
 * statement write nothing at all (the transactional phase 1 then answers), so the reservation is never made twice.
 */
class CapturePhaseOneStatementTest extends LifecycleSupport {

    @Autowired
    IdempotencyKeys keys;

    @Autowired
    ApplicationContext context;

    @Test
    void aNewKeyReservesClaimsAndAnnouncesInOneStatementAnExistingKeyWritesNothing() {
        Api api = newMerchant();
        var authorized = authorize(api, newReference(), 10_000);
        PaymentId payment = PaymentId.parse(authorized.get("id").asString()).orElseThrow();
        PendingOperations phaseOne = PendingOperations.in(context);
        ClientKey ck = new ClientKey(phaseOne.merchantOf(payment), OperationKind.CAPTURE.keySpace(), Api.newKey());

        Optional<PaymentOperation> first = phaseOne.captureStatement(ck, payment, 4_000, false);
        Optional<PaymentOperation> again = phaseOne.captureStatement(ck, payment, 4_000, false);

        assertThat(first).hasValueSatisfying(op -> assertThat(op.amount()).isEqualTo(4_000));
        assertThat(again).as("the key exists: nothing written").isEmpty();
        assertThat(amount(payment(api, payment.toString()), "amount_capturable"))
                .as("reserved once")
                .isEqualTo(6_000);
        assertThat(jdbc.sql("SELECT count(*) FROM payment_operations WHERE payment_id = :id")
                        .param("id", payment.value())
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE resource_id = :id AND event_type = 'capture.pending'")
                        .param("id", first.orElseThrow().id())
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
        assertThat(keys.find(ck))
                .hasValueSatisfying(key -> assertThat(key.resourceId())
                        .isEqualTo(first.orElseThrow().id()));
    }
}
