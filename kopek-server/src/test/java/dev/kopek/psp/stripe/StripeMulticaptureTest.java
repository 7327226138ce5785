package dev.kopek.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.Money;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.LookupResult;
import dev.kopek.psp.OutboundHeaders;
import dev.kopek.psp.PspRequest;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 24, defect 5: captures at Stripe as its API allows them. An authorization is captured once unless the account
 * has multicapture and the confirmation requested it; a capture whose answer was lost is looked up by its own mark on
 * the PaymentIntent, never by what the PaymentIntent received in all (which an earlier capture may have moved).
 */
class StripeMulticaptureTest {

    private static final String MULTICAPTURE_ACCOUNT = "sk_test_kopek_stub_multicapture_account";
    private static final StripeStub STUB = new StripeStub(Clock.systemUTC()).addAccount(MULTICAPTURE_ACCOUNT);

    static {
        STUB.enableMulticapture(MULTICAPTURE_ACCOUNT);
    }

    private final StripePaymentProvider once = adapter(StripeStub.SECRET_KEY, false);
    private final StripePaymentProvider inParts = adapter(MULTICAPTURE_ACCOUNT, true);

    @AfterAll
    static void stop() {
        STUB.close();
    }

    @Test
    void aLostSecondCaptureIsNotFoundThoughAnEarlierCaptureMovedMoney() throws Exception {
        // Confirmed for multicapture as Stripe's own dashboard or another integration would: the capture lookup must
        // not depend on how the PaymentIntent came to allow several captures.
        String intent = confirmForMulticapture(1_000);
        PspRequest first = capture(intent, 300, false);
        PspRequest second = capture(intent, 200, false);
        assertThat(inParts.execute(first)).isInstanceOf(ChargeOutcome.Succeeded.class);

        // The second capture's request never reached Stripe: its answer was lost before it was sent.
        assertThat(inParts.lookup(second))
                .as("the PaymentIntent received 300, but not under this capture")
                .isInstanceOf(LookupResult.NotFound.class);
        assertThat(inParts.lookup(first)).isEqualTo(new LookupResult.Found(new ChargeOutcome.Succeeded(intent)));
        assertThat(STUB.received(intent)).isEqualTo(300);
    }

    @Test
    void anAccountWithMulticaptureRequestsItAndCapturesInParts() {
        String intent = authorize(inParts, 1_000);
        assertThat(lastForm("/v1/payment_intents"))
                .containsEntry("payment_method_options[card][request_multicapture]", "if_available");

        assertThat(inParts.execute(capture(intent, 300, false))).isInstanceOf(ChargeOutcome.Succeeded.class);
        assertThat(STUB.intents().get(intent).path("status").asString())
                .as("the rest stays capturable")
                .isEqualTo("requires_capture");
        assertThat(inParts.execute(capture(intent, 700, true))).isInstanceOf(ChargeOutcome.Succeeded.class);
        assertThat(STUB.received(intent)).isEqualTo(1_000);
    }

    @Test
    void anAccountWithoutMulticaptureNeverSendsACaptureThatLeavesTheRest() {
        String intent = authorize(once, 1_000);
        assertThat(lastForm("/v1/payment_intents"))
                .doesNotContainKey("payment_method_options[card][request_multicapture]");
        long captureRequests = captureRequests(intent);

        assertThat(once.execute(capture(intent, 300, false)))
                .as("Stripe would refuse final_capture=false: nothing is sent")
                .isInstanceOf(ChargeOutcome.Failed.class);
        assertThat(captureRequests(intent)).isEqualTo(captureRequests);
        assertThat(once.execute(capture(intent, 300, true))).isInstanceOf(ChargeOutcome.Succeeded.class);
        assertThat(STUB.received(intent)).isEqualTo(300);
    }

    private static StripePaymentProvider adapter(String secretKey, boolean multicapture) {
        StripeProperties base = StripeHarness.properties(STUB);
        return new StripePaymentProvider(
                new StripeProperties(
                        base.apiBase(),
                        secretKey,
                        base.webhookSecrets(),
                        base.webhookTolerance(),
                        base.apiVersion(),
                        base.returnUrl(),
                        multicapture),
                StripeAdapterTest.LIMITS,
                Clock.systemUTC(),
                OutboundHeaders.none());
    }

    private static String authorize(StripePaymentProvider stripe, long amount) {
        PspRequest.Charge request = new PspRequest.Charge(
                "kpk_" + UUID.randomUUID(),
                Money.of(amount, "EUR"),
                StripeStub.OK,
                "order-" + UUID.randomUUID(),
                false);
        return ((ChargeOutcome.Authorized) stripe.execute(request)).pspReference();
    }

    /** A manual-capture PaymentIntent confirmed with multicapture requested, straight at the stub's API. */
    private static String confirmForMulticapture(long amount) throws Exception {
        String form = String.join(
                "&",
                "amount=" + amount,
                "currency=eur",
                "payment_method=" + StripeStub.OK,
                "confirm=true",
                "capture_method=manual",
                "payment_method_options%5Bcard%5D%5Brequest_multicapture%5D=if_available");
        HttpResponse<String> confirmed = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(STUB.baseUri().resolve("/v1/payment_intents"))
                                .header("Authorization", "Bearer " + MULTICAPTURE_ACCOUNT)
                                .header("Content-Type", "application/x-www-form-urlencoded")
                                .POST(HttpRequest.BodyPublishers.ofString(form))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(confirmed.statusCode()).as(confirmed.body()).isEqualTo(200);
        return StripeResponses.parse(confirmed.body()).path("id").asString();
    }

    private static PspRequest capture(String intent, long amount, boolean last) {
        return new PspRequest.Capture("kpk_cap_" + UUID.randomUUID(), intent, Money.of(amount, "EUR"), last);
    }

    private static Map<String, String> lastForm(String path) {
        return STUB.requests().stream()
                .filter(r -> r.method().equals("POST") && r.path().equals(path))
                .reduce((a, b) -> b)
                .orElseThrow()
                .form();
    }

    private static long captureRequests(String intent) {
        return STUB.requests().stream()
                .filter(r -> r.path().equals("/v1/payment_intents/" + intent + "/capture"))
                .count();
    }
}
