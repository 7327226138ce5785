package dev.kopek.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/** Shared steps for lifecycle tests: authorize, capture, void, refund through the public API. */
abstract class LifecycleSupport extends IntegrationTest {

    static String manual(String reference, long amount) {
        return "{\"reference\":\"" + reference + "\",\"amount\":" + amount
                + ",\"currency\":\"EUR\",\"payment_method\":\"pm_ok\",\"capture_method\":\"manual\"}";
    }

    static JsonNode authorize(Api api, String reference, long amount) {
        Api.Response authorized = api.pay(Api.newKey(), manual(reference, amount));
        assertThat(authorized.status()).isEqualTo(201);
        assertThat(authorized.text("status")).isEqualTo("authorized");
        return authorized.json();
    }

    static JsonNode charge(Api api, String reference, long amount) {
        Api.Response paid = api.pay(Api.newKey(), Api.payment(reference, amount, "EUR", "pm_ok"));
        assertThat(paid.status()).isEqualTo(201);
        return paid.json();
    }

    static Api.Response capture(Api api, String paymentId, String body) {
        return api.post("/v1/payments/" + paymentId + "/capture", Api.newKey(), body);
    }

    static Api.Response voidIt(Api api, String paymentId) {
        return api.post("/v1/payments/" + paymentId + "/void", Api.newKey(), "");
    }

    static Api.Response refund(Api api, String paymentId, long amount) {
        return api.post("/v1/payments/" + paymentId + "/refunds", Api.newKey(), "{\"amount\":" + amount + "}");
    }

    static JsonNode payment(Api api, String paymentId) {
        return api.get("/v1/payments/" + paymentId).json();
    }

    static long amount(JsonNode payment, String field) {
        return payment.get(field).asLong();
    }

    /** The PSP's own record of what moved on a charge: the oracle. */
    static long capturedAtPsp(String chargeId) {
        return SIMULATOR.capturedTotal(chargeId);
    }

    static long refundedAtPsp(String chargeId) {
        return SIMULATOR.refundedTotal(chargeId);
    }

    static long refundsAtPsp(String chargeId) {
        return SIMULATOR.movements().stream()
                .filter(m -> chargeId.equals(m.chargeId())
                        && m.type().equals("refund")
                        && m.status().equals("succeeded"))
                .count();
    }
}
