package dev.kopek.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.client.Event;
import dev.kopek.client.EventPage;
import dev.kopek.client.IdempotencyKeyReusedException;
import dev.kopek.client.KopekApiException;
import dev.kopek.client.KopekClient;
import dev.kopek.client.LedgerTransaction;
import dev.kopek.client.NewPayment;
import dev.kopek.client.OperationKey;
import dev.kopek.client.Payment;
import dev.kopek.client.Refund;
import dev.kopek.client.Result;
import dev.kopek.client.RetryPolicy;
import dev.kopek.support.IntegrationTest;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The Java client against a whole Kopek over HTTP, charging through the simulator (the oracle). */
class KopekClientTest extends IntegrationTest {

    private static final RetryPolicy QUICK = new RetryPolicy(Duration.ofSeconds(20), Duration.ofMillis(20),
            Duration.ofMillis(200), 8);

    private KopekClient clientFor(URI base) {
        var merchant = merchants.create("Client merchant " + UUID.randomUUID());
        return KopekClient.builder(base, merchants.issueKey(merchant.id()).secret()).retryPolicy(QUICK).build();
    }

    @Test
    void aResponseLostAfterKopekChargedIsRetriedWithTheSameKeyAndChargesOnce() throws Exception {
        String reference = newReference();
        try (DroppingProxy proxy = new DroppingProxy(port, 1)) {
            KopekClient kopek = clientFor(proxy.uri());

            Result<Payment> result = kopek.createPayment(OperationKey.of(reference + "/pay"),
                    NewPayment.of(reference, 4990, "EUR", "pm_ok"));

            assertThat(proxy.dropped()).isEqualTo(1);
            assertThat(result).isInstanceOfSatisfying(Result.Done.class, done -> assertThat(done.replayed()).isTrue());
            assertThat(result.value().status()).isEqualTo("captured");
        }
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    @Test
    void aChangedBodyUnderTheSameKeyIsATypedErrorAndChargesNothingMore() {
        KopekClient kopek = clientFor(baseUri());
        String reference = newReference();
        OperationKey key = OperationKey.of(reference + "/pay");
        kopek.createPayment(key, NewPayment.of(reference, 1000, "EUR", "pm_ok"));

        assertThatThrownBy(() -> kopek.createPayment(key, NewPayment.of(reference, 2000, "EUR", "pm_ok")))
                .isInstanceOf(IdempotencyKeyReusedException.class);
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    @Test
    void anUnknownPspOutcomeIsPendingAndARefusalIsTyped() {
        KopekClient kopek = clientFor(baseUri());
        String reference = newReference();

        Result<Payment> unknown = kopek.createPayment(OperationKey.of(reference + "/pay"),
                NewPayment.of(reference, 700, "EUR", "pm_5xx_no_charge"));

        assertThat(unknown).isInstanceOf(Result.Pending.class);
        assertThat(unknown.value().isProcessing()).isTrue();
        assertThatThrownBy(() -> kopek.createPayment(OperationKey.of(reference + "/pay-again"),
                NewPayment.of(reference, 700, "EUR", "pm_ok"))).isInstanceOfSatisfying(KopekApiException.class,
                        e -> assertThat(e.code()).isEqualTo("intent_has_live_attempt"));
    }

    @Test
    void theWholeMerchantSurfaceIsTyped() {
        KopekClient kopek = clientFor(baseUri());
        String reference = newReference();
        Payment authorized = kopek.createPayment(OperationKey.of(reference + "/pay"),
                NewPayment.of(reference, 10_000, "EUR", "pm_ok").withManualCapture()
                        .withDescription("two books").withMetadata(Map.of("order", "1001"))).value();
        assertThat(authorized.status()).isEqualTo("authorized");
        assertThat(authorized.metadata()).containsEntry("order", "1001");

        Payment captured = kopek.capture(OperationKey.of(reference + "/capture"), authorized.id(), 8_000L, true)
                .value();
        assertThat(captured.amountCaptured()).isEqualTo(8_000);
        Refund refund = kopek.refund(OperationKey.of(reference + "/refund-1"), captured.id(), 3_000, "damaged")
                .value();
        assertThat(refund.isPending()).isTrue();
        assertThat(kopek.refunds(captured.id())).extracting(Refund::id).containsExactly(refund.id());
        assertThat(kopek.getRefund(refund.id()).amount()).isEqualTo(3_000);
        assertThat(kopek.paymentsByReference(reference)).extracting(Payment::id).containsExactly(captured.id());

        EventPage events = kopek.events(null, 100);
        assertThat(events.data()).extracting(Event::type).contains("payment.authorized", "payment.captured");
        assertThat(kopek.events(events.nextCursor(), 100).data()).isEmpty();
        assertThat(kopek.balance().held()).isNotNull();
        assertThat(kopek.ledgerTransactions(captured.id(), null, 50).data())
                .extracting(LedgerTransaction::paymentId).containsOnly(captured.id());
    }
}
