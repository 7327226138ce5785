package dev.kopek.simulator;

import static dev.kopek.simulator.CaptureTest.assertRefused;
import static dev.kopek.simulator.SimClient.amountJson;
import static dev.kopek.simulator.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class VoidTest extends RunningSimulator {
    @Test
    void aVoidReleasesTheWholeAuthorization() throws Exception {
        String charge = client.authorize("auth", 1000);

        HttpResponse<String> voided = client.voidCharge(charge, "v1");

        assertThat(voided.statusCode()).isEqualTo(200);
        JsonNode body = json(voided);
        assertThat(body.get("id").stringValue()).startsWith("void_");
        assertThat(body.get("object").stringValue()).isEqualTo("void");
        assertThat(body.get("charge_id").stringValue()).isEqualTo(charge);
        assertThat(body.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(body.get("amount_released").longValue()).isEqualTo(1000);
        JsonNode state = json(client.get("/charges/" + charge));
        assertThat(state.get("status").stringValue()).isEqualTo("voided");
        assertThat(state.get("voided").booleanValue()).isTrue();
        assertThat(state.get("amount_capturable").longValue()).isZero();
        assertThat(simulator.movements(charge))
                .extracting(MovementRecord::type, MovementRecord::amount)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("authorization", 1000L),
                        org.assertj.core.groups.Tuple.tuple("void", 1000L));
        assertThat(simulator.capturedTotal(charge)).isZero();
    }

    @Test
    void theSameKeyReplaysAndANewKeyIsRefused() throws Exception {
        String charge = client.authorize("auth", 1000);
        HttpResponse<String> first = client.post("/charges/" + charge + "/void", "v1", "{}");

        HttpResponse<String> replay = client.post("/charges/" + charge + "/void", "v1", "{}");
        HttpResponse<String> again = client.voidCharge(charge, "v2");

        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(replay.body()).isEqualTo(first.body());
        assertRefused(again, 409, "authorization_voided");
        HttpResponse<String> lookup = client.get("/charges/" + charge + "/void?idempotency_key=v1");
        assertThat(lookup.statusCode()).isEqualTo(200);
        assertThat(lookup.body()).isEqualTo(first.body());
        assertThat(simulator.movements(charge))
                .filteredOn(m -> m.type().equals("void"))
                .hasSize(1);
        assertThat(simulator.lookups("void", "v1")).isEqualTo(1);
    }

    @Test
    void aCapturedChargeCannotBeVoided() throws Exception {
        String partially = client.authorize("auth", 1000);
        client.capture(partially, "c", amountJson(1));
        String sale = client.sale("sale", 1000);

        assertRefused(client.voidCharge(partially, "v1"), 409, "already_captured");
        assertRefused(client.voidCharge(sale, "v2"), 409, "already_captured");
        assertRefused(client.voidCharge("ch_unknown", "v3"), 404, "charge_not_found");
        assertThat(simulator.movements()).noneMatch(m -> m.type().equals("void"));
    }

    @Test
    void anExpiredAuthorizationCannotBeVoided() throws Exception {
        String charge = client.authorize("auth", 1000);
        simulator.advanceClock(Duration.ofDays(7));

        assertRefused(client.voidCharge(charge, "v"), 409, "authorization_expired");
    }

    @Test
    void aVoidTakesNoBodyOrAnEmptyObject() throws Exception {
        String charge = client.authorize("auth", 1000);

        assertThat(client.post("/charges/" + charge + "/void", "v", "[]").statusCode())
                .isEqualTo(400);
        assertThat(client.post("/charges/" + charge + "/void", "v", "nope").statusCode())
                .isEqualTo(400);
        assertThat(client.post("/charges/" + charge + "/void", null, "").statusCode())
                .isEqualTo(400);
        assertThat(client.voidCharge(charge, "v").statusCode()).isEqualTo(200);
    }
}
