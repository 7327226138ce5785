package dev.kopek.access.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.HandlerLookups;
import dev.kopek.support.IntegrationTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A request's handler is resolved once: the access decision finds it and the dispatcher runs that one
 * ({@link DecidedHandler}), with the path's variables as the decision's lookup found them. Paths the decision
 * refuses, or that have no handler for the method as sent, are still found the way they always were.
 */
class HandlerResolutionTest extends IntegrationTest {

    @Autowired
    HandlerLookups lookups;

    @Test
    void aPaymentAndItsReadAreEachResolvedOnce() {
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 1000, "EUR", "pm_ok"));
        assertThat(paid.status()).isEqualTo(201);
        String id = paid.text("id");

        Api.Response read = api.get("/v1/payments/" + id);

        assertThat(read.status()).isEqualTo(200);
        assertThat(read.text("id")).as("the path variable reached the handler").isEqualTo(id);
        assertThat(lookups.of("GET", "/v1/payments/" + id)).isEqualTo(1);
        assertThat(lookups.of("POST", "/v1/payments")).isPositive();
    }

    @Test
    void aMerchantRouteWithAnUnknownIdIsResolvedOnceAndAnsweredByItsHandler() {
        String path = "/v1/payments/" + Api.unique("pay");

        Api.Response missing = newMerchant().get(path);

        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.body()).contains("\"code\":\"not_found\"");
        assertThat(lookups.of("GET", path)).isEqualTo(1);
    }

    @Test
    void aRefusedRequestIsResolvedOnlyForTheDecision() {
        String path = "/v1/payments/" + Api.unique("pay");

        Api.Response refused = newMerchant().as(null).get(path);

        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.text("code")).isEqualTo("missing_api_key");
        assertThat(lookups.of("GET", path)).isEqualTo(1);
    }

    @Test
    void aMethodWithoutAHandlerIsStillAnsweredByTheDispatcher() {
        String path = "/v1/payments/" + Api.unique("pay");

        Api.Response answer = newMerchant().delete(path);

        assertThat(answer.status()).isEqualTo(405);
        assertThat(lookups.of("DELETE", path))
                .as("the decision's own lookup, its probes of the path's other methods, and the dispatcher's")
                .isGreaterThan(2);
    }
}
