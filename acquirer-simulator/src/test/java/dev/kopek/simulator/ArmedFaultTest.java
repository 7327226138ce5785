package dev.kopek.simulator;

import static dev.kopek.simulator.CaptureTest.assertRefused;
import static dev.kopek.simulator.SimClient.amountJson;
import static dev.kopek.simulator.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ArmedFaultTest extends RunningSimulator {
    @Test
    void fiveHundredAfterSuccessCapturesAndStores() throws Exception {
        String charge = client.authorize("auth", 1000);
        simulator.armFault("capture", charge, "5xx_after_success", 1);

        HttpResponse<String> failed = client.capture(charge, "c", amountJson(300));

        assertRefused(failed, 500, "internal_error");
        HttpResponse<String> lookup = client.get("/charges/" + charge + "/captures?idempotency_key=c");
        assertThat(lookup.statusCode()).isEqualTo(200);
        HttpResponse<String> retry = client.capture(charge, "c", amountJson(300));
        assertThat(retry.statusCode()).isEqualTo(201);
        assertThat(retry.body()).isEqualTo(lookup.body());
        assertThat(simulator.capturedTotal(charge)).isEqualTo(300);
    }

    @Test
    void resetAfterSuccessRefundsThenDropsTheConnection() throws Exception {
        String charge = client.sale("sale", 1000);
        client.post(
                "/_sim/faults",
                "{\"operation\": \"refund\", \"charge_id\": \"" + charge + "\", \"fault\": \"reset_after_success\"}");

        assertThatThrownBy(() -> client.refund(charge, "r", 100))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(HttpTimeoutException.class);

        assertThat(simulator.refundedTotal(charge)).isEqualTo(100);
        assertThat(client.get("/refunds?idempotency_key=r").statusCode()).isEqualTo(200);
        assertThat(client.refund(charge, "r", 100).statusCode()).isEqualTo(201);
        assertThat(simulator.refundedTotal(charge)).isEqualTo(100);
    }

    @Test
    void timeoutAfterSuccessVoidsThenHangs() throws Exception {
        simulator.configure(SimulatorConfig.defaults().withTimeoutHangMillis(2_000));
        String charge = client.authorize("auth", 1000);
        simulator.armFault("void", charge, "timeout_after_success", 1);

        assertThatThrownBy(() -> client.post("/charges/" + charge + "/void", "v", "", Duration.ofMillis(200)))
                .isInstanceOf(HttpTimeoutException.class);

        assertThat(client.voidCharge(charge, "v").statusCode()).isEqualTo(200);
        assertThat(simulator.movements(charge))
                .filteredOn(m -> m.type().equals("void"))
                .hasSize(1);
    }

    @Test
    void noEffectFaultsReleaseTheKeyForEachArmedTime() throws Exception {
        String charge = client.authorize("auth", 1000);
        simulator.armFault("capture", charge, "5xx_no_effect", 2);
        simulator.armFault("capture", charge, "429", 1);

        assertRefused(client.capture(charge, "c", amountJson(100)), 503, "service_unavailable");
        assertThat(client.get("/charges/" + charge + "/captures?idempotency_key=c")
                        .statusCode())
                .isEqualTo(404);
        assertRefused(client.capture(charge, "c", amountJson(100)), 503, "service_unavailable");
        HttpResponse<String> limited = client.capture(charge, "c", amountJson(200));
        assertRefused(limited, 429, "rate_limited");
        assertThat(limited.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(simulator.capturedTotal(charge)).isZero();

        assertThat(client.capture(charge, "c", amountJson(100)).statusCode()).isEqualTo(201);
        assertThat(simulator.capturedTotal(charge)).isEqualTo(100);
    }

    @Test
    void aDeclinedCaptureIsStoredAndMovesNothing() throws Exception {
        String charge = client.authorize("auth", 1000);
        simulator.armFault("capture", charge, "declined", 1);

        HttpResponse<String> declined = client.capture(charge, "c1", amountJson(100));

        assertThat(declined.statusCode()).isEqualTo(402);
        assertThat(json(declined).get("status").stringValue()).isEqualTo("declined");
        assertThat(json(declined).get("decline_code").stringValue()).isEqualTo("capture_declined");
        assertThat(client.capture(charge, "c1", amountJson(100)).body()).isEqualTo(declined.body());
        assertThat(simulator.capturedTotal(charge)).isZero();
        assertThat(client.capture(charge, "c2", amountJson(100)).statusCode())
                .as("fault used up")
                .isEqualTo(201);
    }

    @Test
    void aDeclinedRefundFaultDeclinesOnlyTheNextRefund() throws Exception {
        String charge = client.sale("sale", 1000);
        simulator.armFault("refund", charge, "declined", 1);

        assertThat(client.refund(charge, "r1", 100).statusCode()).isEqualTo(402);
        assertThat(client.refund(charge, "r2", 100).statusCode()).isEqualTo(201);
        assertThat(simulator.refundedTotal(charge)).isEqualTo(100);
    }

    @Test
    void aRefusedOperationDoesNotUseUpAnAfterSuccessFault() throws Exception {
        String charge = client.authorize("auth", 1000);
        simulator.armFault("capture", charge, "5xx_after_success", 1);

        assertRefused(client.capture(charge, "c1", amountJson(2_000)), 409, "amount_exceeds_capturable");
        assertThat(client.capture(charge, "c2", amountJson(100)).statusCode()).isEqualTo(500);
        assertThat(simulator.capturedTotal(charge)).isEqualTo(100);
    }

    @Test
    void faultsAreArmedPerOperationAndCharge() throws Exception {
        String first = client.authorize("a1", 1000);
        String second = client.authorize("a2", 1000);
        simulator.armFault("capture", first, "5xx_no_effect", 1);

        assertThat(client.capture(second, "c", amountJson(100)).statusCode()).isEqualTo(201);
        assertThat(client.voidCharge(first, "v").statusCode()).isEqualTo(200);
    }

    @Test
    void armingIsValidatedAndResetClearsIt() throws Exception {
        String charge = client.authorize("auth", 1000);

        assertThat(client.post(
                                "/_sim/faults",
                                "{\"operation\": \"capture\", \"charge_id\": \"" + charge
                                        + "\", \"fault\": \"explode\"}")
                        .statusCode())
                .isEqualTo(400);
        assertThat(client.post(
                                "/_sim/faults",
                                "{\"operation\": \"charge\", \"charge_id\": \"" + charge + "\", \"fault\": \"429\"}")
                        .statusCode())
                .isEqualTo(400);
        assertThat(client.post(
                                "/_sim/faults",
                                "{\"operation\": \"capture\", \"charge_id\": \"" + charge
                                        + "\", \"fault\": \"429\", \"times\": 0}")
                        .statusCode())
                .isEqualTo(400);
        assertRefused(
                client.post(
                        "/_sim/faults", "{\"operation\": \"capture\", \"charge_id\": \"ch_nope\", \"fault\": \"429\"}"),
                404,
                "charge_not_found");
        assertThatThrownBy(() -> simulator.armFault("capture", "ch_nope", "429", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("charge_not_found");
        assertThatThrownBy(() -> simulator.armFault("refund", charge, "nope", 1))
                .isInstanceOf(IllegalArgumentException.class);

        simulator.armFault("capture", charge, "5xx_no_effect", 1);
        client.post("/_sim/reset", "");
        String fresh = client.authorize("auth", 1000);
        assertThat(client.capture(fresh, "c", amountJson(1)).statusCode()).isEqualTo(201);
    }
}
