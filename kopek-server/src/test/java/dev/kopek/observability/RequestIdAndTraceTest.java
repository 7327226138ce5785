package dev.kopek.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PrefixedId;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.Test;

/** Request ids in and out of every answer, and the caller's W3C trace carried on to the PSP. */
class RequestIdAndTraceTest extends IntegrationTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void callersRequestIdAndTraceReachThePsp() {
        Api api = newMerchant();
        HttpRequest request = api.request("/v1/payments")
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", Api.newKey())
                .header("X-Request-Id", "checkout-42.a")
                .header("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01")
                .POST(HttpRequest.BodyPublishers.ofString(Api.payment(newReference(), 4990, "RUB", "pm_ok")))
                .build();
        Api.Response created = api.send(request);

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.header("X-Request-Id")).isEqualTo("checkout-42.a");
        String providerKey = providerKeyOf(created.text("id"));
        assertThat(SIMULATOR.traceparents(providerKey))
                .isNotEmpty()
                .allSatisfy(traceparent -> assertThat(traceparent).matches("00-" + TRACE_ID + "-[0-9a-f]{16}-0[01]"));
        assertThat(SIMULATOR.requestIds(providerKey)).containsOnly("checkout-42.a");
    }

    @Test
    void aPaymentWithoutATraceStartsOneAndPassesItOn() {
        Api.Response created = newMerchant().pay(Api.newKey(), Api.payment(newReference(), 500, "JPY", "pm_ok"));

        assertThat(created.header("X-Request-Id")).matches("req_[0-9a-f]{24}");
        assertThat(SIMULATOR.traceparents(providerKeyOf(created.text("id"))))
                .allSatisfy(traceparent -> assertThat(traceparent).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]"));
        assertThat(SIMULATOR.requestIds(providerKeyOf(created.text("id"))))
                .containsOnly(created.header("X-Request-Id"));
    }

    @Test
    void malformedRequestIdIsReplacedAndEveryProblemNamesTheRequest() {
        Api api = newMerchant();
        HttpRequest request = api.request("/v1/payments")
                .header("Content-Type", "application/json")
                .header("X-Request-Id", "two words\u00e9".repeat(20))
                .POST(HttpRequest.BodyPublishers.ofString(Api.payment(newReference(), 1000, "EUR", "pm_ok")))
                .build();
        Api.Response refused = api.send(request);

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.header("X-Request-Id")).matches("req_[0-9a-f]{24}");
        assertThat(refused.text("request_id")).isEqualTo(refused.header("X-Request-Id"));
    }

    @Test
    void everyAnswerCarriesARequestId() {
        assertThat(newMerchant()
                        .get("/v1/payments/pay_00000000000000000000000000000000")
                        .header("X-Request-Id"))
                .startsWith("req_");
        assertThat(new Api(baseUri(), null).get("/actuator/health").header("X-Request-Id"))
                .startsWith("req_");
        Api.Response unauthenticated = new Api(baseUri(), "sk_test_wrong_wrong_wrong").get("/v1/payments/x");
        assertThat(unauthenticated.header("X-Request-Id")).startsWith("req_");
        assertThat(unauthenticated.text("request_id")).isEqualTo(unauthenticated.header("X-Request-Id"));
    }

    private String providerKeyOf(String paymentId) {
        return jdbc.sql("SELECT provider_key FROM payments WHERE id = :id")
                .param("id", PrefixedId.parse("pay", paymentId).orElseThrow())
                .query(String.class)
                .single();
    }
}
