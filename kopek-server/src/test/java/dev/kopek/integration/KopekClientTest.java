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
import dev.kopek.client.WebhookDelivery;
import dev.kopek.client.WebhookEndpoint;
import dev.kopek.support.IntegrationTest;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The Java client against a whole Kopek over HTTP, charging through the simulator (the oracle). */
class KopekClientTest extends IntegrationTest {

    private static final RetryPolicy QUICK =
            new RetryPolicy(Duration.ofSeconds(20), Duration.ofMillis(20), Duration.ofMillis(200), 8);

    private KopekClient clientFor(URI base) {
        var merchant = merchants.create("Client merchant " + UUID.randomUUID());
        return KopekClient.builder(base, merchants.issueKey(merchant.id()).secret())
                .retryPolicy(QUICK)
                .build();
    }

    @Test
    void aResponseLostAfterKopekChargedIsRetriedWithTheSameKeyAndChargesOnce() throws Exception {
        String reference = newReference();
        try (DroppingProxy proxy = new DroppingProxy(port, 1)) {
            KopekClient kopek = clientFor(proxy.uri());

            Result<Payment> result = kopek.createPayment(
                    OperationKey.of(reference + "/pay"), NewPayment.of(reference, 4990, "EUR", "pm_ok"));

            assertThat(proxy.dropped()).isEqualTo(1);
            assertThat(result)
                    .isInstanceOfSatisfying(
                            Result.Done.class,
                            done -> assertThat(done.replayed()).isTrue());
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

        Result<Payment> unknown = kopek.createPayment(
                OperationKey.of(reference + "/pay"), NewPayment.of(reference, 700, "EUR", "pm_5xx_no_charge"));

        assertThat(unknown).isInstanceOf(Result.Pending.class);
        assertThat(unknown.value().isProcessing()).isTrue();
        assertThatThrownBy(() -> kopek.createPayment(
                        OperationKey.of(reference + "/pay-again"), NewPayment.of(reference, 700, "EUR", "pm_ok")))
                .isInstanceOfSatisfying(
                        KopekApiException.class, e -> assertThat(e.code()).isEqualTo("intent_has_live_attempt"));
    }

    @Test
    void theWholeMerchantSurfaceIsTyped() {
        KopekClient kopek = clientFor(baseUri());
        String reference = newReference();
        Payment authorized = kopek.createPayment(
                        OperationKey.of(reference + "/pay"),
                        NewPayment.of(reference, 10_000, "EUR", "pm_ok")
                                .withManualCapture()
                                .withDescription("two books")
                                .withMetadata(Map.of("order", "1001")))
                .value();
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
                .extracting(LedgerTransaction::paymentId)
                .containsOnly(captured.id());
    }

    /**
     * Kopek answers every refund 202 pending and settles it at the PSP afterwards: the client says Pending (a replay
     * with the same key too), and awaitRefund sees it through to succeeded, refunded once at the simulator; a refund
     * the PSP declines is awaited to failed, and its amount is refundable again.
     */
    @Test
    void aRefundIsPendingUntilThePspAnswersAndAwaitSeesItsOutcome() {
        KopekClient kopek = clientFor(baseUri());
        String reference = newReference();
        Payment paid = kopek.createPayment(
                        OperationKey.of(reference + "/pay"), NewPayment.of(reference, 5_000, "EUR", "pm_ok"))
                .value();
        OperationKey key = OperationKey.of(reference + "/refund-1");

        Result<Refund> refund = kopek.refund(key, paid.id(), 2_000, "damaged");
        Result<Refund> replay = kopek.refund(key, paid.id(), 2_000, "damaged");
        Result<Refund> awaited =
                awaitWhileTheReconcilerRuns(kopek, refund.value().id());

        assertThat(refund).isInstanceOf(Result.Pending.class);
        assertThat(refund.value().isPending()).isTrue();
        assertThat(replay).isInstanceOf(Result.Pending.class);
        assertThat(replay.value().id()).isEqualTo(refund.value().id());
        assertThat(awaited).isInstanceOf(Result.Done.class);
        assertThat(awaited.value().status()).isEqualTo("succeeded");
        assertThat(kopek.payment(paid.id()).amountRefunded()).isEqualTo(2_000);
        assertThat(SIMULATOR.refundedTotal(paid.pspReference())).isEqualTo(2_000);

        String declining = newReference();
        Payment other = kopek.createPayment(
                        OperationKey.of(declining + "/pay"), NewPayment.of(declining, 700, "EUR", "pm_refund_declined"))
                .value();
        Result<Refund> declined = awaitWhileTheReconcilerRuns(
                kopek,
                kopek.refund(OperationKey.of(declining + "/refund"), other.id(), 700, null)
                        .value()
                        .id());
        assertThat(declined).isInstanceOf(Result.Done.class);
        assertThat(declined.value().status()).isEqualTo("failed");
        assertThat(kopek.payment(other.id()).amountRefundPending()).isZero();
        assertThat(SIMULATOR.refundedTotal(other.pspReference())).isZero();
    }

    /**
     * Tests start no refund worker (kopek.refunds.dispatch is off): the reconciler, run here beside the await as it
     * runs on its schedule in production, sends the refund to the PSP.
     */
    private Result<Refund> awaitWhileTheReconcilerRuns(KopekClient kopek, String refundId) {
        Thread worker = Thread.ofVirtual().start(reconciler::reconcileOnce);
        try {
            return kopek.awaitRefund(refundId, Duration.ofSeconds(20));
        } finally {
            try {
                worker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void voidsAndLedgerTransactionsByIdAreTyped() {
        KopekClient kopek = clientFor(baseUri());
        String reference = newReference();
        Payment authorized = kopek.createPayment(
                        OperationKey.of(reference + "/pay"),
                        NewPayment.of(reference, 2_500, "EUR", "pm_ok").withManualCapture())
                .value();

        Payment voided = kopek.voidPayment(OperationKey.of(reference + "/void"), authorized.id())
                .value();

        assertThat(voided.status()).isEqualTo("voided");
        assertThat(kopek.payment(authorized.id()).status()).isEqualTo("voided");
        var journal = kopek.ledgerTransactions(authorized.id(), null, 50).data();
        assertThat(journal).isNotEmpty();
        LedgerTransaction first = journal.get(0);
        assertThat(kopek.ledgerTransaction(first.id()).entries()).isEqualTo(first.entries());
    }

    @Test
    void webhookEndpointsAreHttpsTheirSecretIsShownOnceAndDeliveriesAreTyped() {
        KopekClient kopek = clientFor(baseUri());
        OperationKey create = OperationKey.of("hooks/" + UUID.randomUUID());
        String url = "https://hooks.example.test/kopek";

        Result<WebhookEndpoint> created = kopek.createWebhookEndpoint(create, url, List.of("*"));
        Result<WebhookEndpoint> replayed = kopek.createWebhookEndpoint(create, url, List.of("*"));

        assertThat(created.value().secret()).startsWith("whsec_");
        assertThat(replayed)
                .isInstanceOfSatisfying(
                        Result.Done.class, done -> assertThat(done.replayed()).isTrue());
        assertThat(replayed.value().id()).isEqualTo(created.value().id());
        assertThat(replayed.value().secret())
                .as("a replay never shows the sealed secret again")
                .isNull();
        assertThatThrownBy(() -> kopek.createWebhookEndpoint(
                        OperationKey.generate(), "http://hooks.example.test/k", List.of("*")))
                .isInstanceOfSatisfying(KopekApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.code()).isEqualTo("insecure_url");
                    assertThat(e.field()).isEqualTo("url");
                });

        String endpoint = created.value().id();
        String reference = newReference();
        kopek.createPayment(OperationKey.of(reference + "/pay"), NewPayment.of(reference, 900, "EUR", "pm_ok"));
        List<WebhookDelivery> deliveries = kopek.deliveries(endpoint, 10);
        assertThat(deliveries)
                .isNotEmpty()
                .allSatisfy(d -> assertThat(d.endpoint()).isEqualTo(endpoint));
        WebhookDelivery one = kopek.delivery(endpoint, deliveries.get(0).id());
        assertThat(one.attemptHistory()).isNotNull();
        assertThat(kopek.redeliver(OperationKey.of(reference + "/redeliver"), endpoint, one.id())
                        .value()
                        .id())
                .isEqualTo(one.id());

        assertThat(kopek.webhookEndpoints()).extracting(WebhookEndpoint::id).containsExactly(endpoint);
        assertThat(kopek.webhookEndpoint(endpoint).secret()).isNull();
        assertThat(kopek.deleteWebhookEndpoint(endpoint).status()).isEqualTo("deleted");
    }
}
