package dev.kopek.simulator;

import static dev.kopek.simulator.SimClient.chargeJson;
import static dev.kopek.simulator.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

class AdminApiTest extends RunningSimulator {
    @Test
    void chargesCanBeFilteredByKeyAndReference() throws Exception {
        client.charge("a", chargeJson(100, "EUR", "pm_ok", "ref-1"));
        client.charge("b", chargeJson(200, "EUR", "pm_declined", "ref-2"));
        client.charge("c", chargeJson(300, "EUR", "pm_ok", null));

        JsonNode all = json(client.get("/_sim/charges"));
        JsonNode byKey = json(client.get("/_sim/charges?idempotency_key=b"));
        JsonNode byRef = json(client.get("/_sim/charges?reference=ref-1"));

        assertThat(all).hasSize(3);
        assertThat(byKey).hasSize(1);
        JsonNode declined = byKey.get(0);
        assertThat(declined.get("status").stringValue()).isEqualTo("declined");
        assertThat(declined.get("decline_code").stringValue()).isEqualTo("card_declined");
        assertThat(declined.get("amount").longValue()).isEqualTo(200);
        assertThat(declined.get("payment_method").stringValue()).isEqualTo("pm_declined");
        assertThat(declined.get("created_at").stringValue()).endsWith("Z");
        assertThat(byRef)
                .singleElement()
                .satisfies(
                        c -> assertThat(c.get("idempotency_key").stringValue()).isEqualTo("a"));
        assertThat(all.get(2).get("reference").isNull()).isTrue();
    }

    @Test
    void statsPerKeyAndInTotal() throws Exception {
        client.charge("s1", chargeJson("pm_ok"));
        client.charge("s1", chargeJson("pm_ok"));
        client.charge("s2", chargeJson("pm_declined"));
        client.lookup("s1");

        JsonNode s1 = json(client.get("/_sim/stats?idempotency_key=s1"));
        JsonNode totals = json(client.get("/_sim/stats"));

        assertThat(s1.get("money_movements").longValue()).isEqualTo(1);
        assertThat(s1.get("lookups").longValue()).isEqualTo(1);
        assertThat(s1.get("charge_requests").longValue()).isEqualTo(2);
        assertThat(totals.get("money_movements").longValue()).isEqualTo(1);
        assertThat(totals.get("lookups").longValue()).isEqualTo(1);
        assertThat(totals.get("charge_requests").longValue()).isEqualTo(3);
    }

    @Test
    void configIsReadAndPartiallyUpdated() throws Exception {
        JsonNode defaults = json(client.get("/_sim/config"));
        assertThat(defaults.get("slow_min_ms").longValue()).isEqualTo(3_000);
        assertThat(defaults.get("key_window_seconds").longValue()).isEqualTo(86_400);

        HttpResponse<String> updated = client.post(
                "/_sim/config", "{\"latency_min_ms\": 5, \"latency_max_ms\": 10, \"fail_after_charge_rate\": 0.25}");

        assertThat(updated.statusCode()).isEqualTo(200);
        assertThat(json(updated).get("latency_max_ms").longValue()).isEqualTo(10);
        assertThat(json(updated).get("timeout_hang_ms").longValue()).isEqualTo(10_000);
        assertThat(simulator.config())
                .isEqualTo(SimulatorConfig.defaults().withLatency(5, 10).withFaultRates(0, 0.25, 0));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"latency_min_ms\": -1}",
                "{\"slow_min_ms\": 10, \"slow_max_ms\": 5}",
                "{\"fail_before_charge_rate\": 1.5}",
                "{\"timeout_after_charge_rate\": -0.1}",
                "{\"fail_before_charge_rate\": 0.6, \"fail_after_charge_rate\": 0.6}",
                "{\"latency_ms\": 1}",
                "{\"latency_min_ms\": \"5\"}",
                "{\"latency_min_ms\": 1.5}",
                "[]",
                "not json"
            })
    void invalidConfigIsRejectedAndChangesNothing(String patch) throws Exception {
        HttpResponse<String> response = client.post("/_sim/config", patch);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("error").isString()).isTrue();
        assertThat(simulator.config()).isEqualTo(SimulatorConfig.defaults());
    }

    @Test
    void resetForgetsEverything() throws Exception {
        client.charge("r", chargeJson("pm_ok"));
        client.lookup("r");
        client.post("/_sim/config", "{\"latency_max_ms\": 1}");
        simulator.advanceClock(Duration.ofDays(3));

        HttpResponse<String> reset = client.post("/_sim/reset", "");

        assertThat(reset.statusCode()).isEqualTo(204);
        assertThat(simulator.charges()).isEmpty();
        assertThat(simulator.moneyMovements("r")).isZero();
        assertThat(simulator.lookups("r")).isZero();
        assertThat(simulator.config()).isEqualTo(SimulatorConfig.defaults());
        assertThat(client.lookup("r").statusCode()).isEqualTo(404);
        JsonNode now = json(client.post("/_sim/clock/advance", "{\"seconds\": 0}"));
        assertThat(java.time.Instant.parse(now.get("now").stringValue()))
                .isBefore(java.time.Instant.now().plus(Duration.ofHours(1)));
    }

    @Test
    void clockAdvanceValidatesItsInput() throws Exception {
        assertThat(client.post("/_sim/clock/advance", "{\"seconds\": -1}").statusCode())
                .isEqualTo(400);
        assertThat(client.post("/_sim/clock/advance", "{}").statusCode()).isEqualTo(400);
        assertThat(client.post("/_sim/clock/advance", "{\"seconds\": 9223372036854775807}")
                        .statusCode())
                .isEqualTo(400);
        assertThat(client.post("/_sim/clock/advance", "{\"seconds\": 1}").statusCode())
                .isEqualTo(200);
    }

    @Test
    void unknownPathIs404AndWrongMethodIs405() throws Exception {
        HttpResponse<String> unknown = client.get("/nope");
        HttpResponse<String> wrongMethod = client.send(
                HttpRequest.newBuilder(client.uri("/charges")).method("DELETE", HttpRequest.BodyPublishers.noBody()));

        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).get("error").stringValue()).isEqualTo("not_found");
        assertThat(wrongMethod.statusCode()).isEqualTo(405);
        assertThat(json(wrongMethod).get("error").stringValue()).isEqualTo("method_not_allowed");
        assertThat(wrongMethod.headers().firstValue("Allow")).hasValue("POST, GET");
    }
}
