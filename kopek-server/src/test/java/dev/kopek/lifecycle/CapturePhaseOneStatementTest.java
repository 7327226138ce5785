package dev.kopek.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

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
import dev.kopek.payments.jdbc.Reservations;
import dev.kopek.support.Api;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Phase 1 of a capture whose key is new is one statement: the key must be free, the reservation must fit, then the
 * capture, the key's claim and the capture's event are written together. A key that exists already makes the
 * statement write nothing at all (the transactional phase 1 then answers), so the reservation is never made twice.
 */
class CapturePhaseOneStatementTest extends LifecycleSupport {

    @Autowired
    OperationStore operations;

    @Autowired
    Reservations reservations;

    @Autowired
    IdempotencyKeys keys;

    @Autowired
    EventStatements events;

    @Test
    void aNewKeyReservesClaimsAndAnnouncesInOneStatementAnExistingKeyWritesNothing() {
        Api api = newMerchant();
        var authorized = authorize(api, newReference(), 10_000);
        PaymentId payment = PaymentId.parse(authorized.get("id").asString()).orElseThrow();
        MerchantId merchant = new MerchantId(jdbc.sql("SELECT merchant_id FROM payments WHERE id = :id")
                .param("id", payment.value())
                .query(UUID.class)
                .single());
        ClientKey ck = new ClientKey(merchant, OperationKind.CAPTURE.keySpace(), Api.newKey());

        Optional<PaymentOperation> first = phaseOne(ck, merchant, payment);
        Optional<PaymentOperation> again = phaseOne(ck, merchant, payment);

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

    private Optional<PaymentOperation> phaseOne(ClientKey ck, MerchantId merchant, PaymentId payment) {
        UUID id = TimeOrderedIds.next(clock());
        return operations.reserveAndInsert(
                IdempotencyKeys.freePart(ck),
                reservations.capturePart(merchant, payment, 4_000, false, "key_free"),
                new OperationStore.NewOperation(
                        id,
                        payment,
                        merchant,
                        OperationKind.CAPTURE,
                        Money.of(4_000, "EUR"),
                        false,
                        null,
                        ck.providerKey(id)),
                pending -> List.of(
                        keys.claimAfterPart(ck, "fingerprint", id, clock().instant(), "operation"),
                        events.append(
                                new BusinessEvent(
                                        pending.eventType(),
                                        "capture",
                                        pending.id(),
                                        "cap_" + pending.id(),
                                        merchant,
                                        pending.version(),
                                        "{}",
                                        clock().instant()),
                                "claimed")));
    }
}
