package dev.kopek.simulator;

import static dev.kopek.simulator.SimClient.amountJson;
import static dev.kopek.simulator.SimClient.chargeJson;
import static dev.kopek.simulator.SimClient.error;
import static dev.kopek.simulator.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class AuthorizationTest {
    private static final String AUTH =
            "{\"amount\": 1000, \"currency\": \"EUR\", \"payment_method\": \"pm_ok\", " + "\"capture\": false}";

    private AcquirerSimulator simulator;
    private SimClient client;

    @BeforeEach
    void start() {
        simulator = AcquirerSimulator.start(0);
        client = new SimClient(simulator);
    }

    @AfterEach
    void stop() {
        client.close();
        simulator.close();
    }

    @Test
    void captureFalseMakesAnAuthorizationThatMovesNoMoney() throws Exception {
        HttpResponse<String> response = client.charge("auth", AUTH);

        assertThat(response.statusCode()).isEqualTo(201);
        JsonNode body = json(response);
        assertThat(body.get("id").stringValue()).startsWith("ch_");
        assertThat(body.get("status").stringValue()).isEqualTo("authorized");
        assertThat(body.get("amount").longValue()).isEqualTo(1000);
        assertThat(body.get("amount_capturable").longValue()).isEqualTo(1000);
        assertThat(body.get("currency").stringValue()).isEqualTo("EUR");
        Instant created = Instant.parse(body.get("created_at").stringValue());
        assertThat(Instant.parse(body.get("expires_at").stringValue())).isEqualTo(created.plus(Duration.ofDays(7)));
        assertThat(simulator.charges()).singleElement().satisfies(c -> {
            assertThat(c.status()).isEqualTo(ChargeRecord.AUTHORIZED);
            assertThat(c.movedMoney()).isFalse();
        });
        assertThat(simulator.moneyMovements("auth")).isZero();
        String id = body.get("id").stringValue();
        assertThat(simulator.movements(id)).singleElement().satisfies(m -> {
            assertThat(m.type()).isEqualTo("authorization");
            assertThat(m.status()).isEqualTo("succeeded");
            assertThat(m.idempotencyKey()).isEqualTo("auth");
        });
        assertThat(simulator.capturedTotal(id)).isZero();
        assertThat(client.lookup("auth").body()).isEqualTo(response.body());
    }

    @Test
    void theCaptureFlagIsPartOfTheFingerprint() throws Exception {
        HttpResponse<String> sale = client.charge("flag", chargeJson(1000, "EUR", "pm_ok", null));
        String explicitTrue =
                "{\"amount\": 1000, \"currency\": \"EUR\", \"payment_method\": \"pm_ok\", \"capture\": true}";

        assertThat(client.charge("flag", explicitTrue).body())
                .as("absent means true")
                .isEqualTo(sale.body());
        HttpResponse<String> auth = client.charge("flag", AUTH);
        assertThat(auth.statusCode()).isEqualTo(422);
        assertThat(error(auth)).isEqualTo("idempotency_key_reused");
        assertThat(client.charge("flag2", AUTH.replace("false", "\"no\"")).statusCode())
                .isEqualTo(400);
    }

    @Test
    void declinesAndTokensBehaveAsForCapturedCharges() throws Exception {
        HttpResponse<String> declined = client.charge("declined", AUTH.replace("pm_ok", "pm_declined"));
        HttpResponse<String> invalid = client.charge("invalid", AUTH.replace("pm_ok", "pm_invalid"));

        assertThat(declined.statusCode()).isEqualTo(402);
        assertThat(json(declined).get("decline_code").stringValue()).isEqualTo("card_declined");
        assertThat(simulator.movements()).singleElement().satisfies(m -> {
            assertThat(m.type()).isEqualTo("authorization");
            assertThat(m.status()).isEqualTo("declined");
        });
        assertThat(invalid.statusCode()).isEqualTo(400);
        String id = json(declined).get("id").stringValue();
        HttpResponse<String> capture = client.capture(id, "cap", "{}");
        assertThat(capture.statusCode()).isEqualTo(409);
        assertThat(error(capture)).isEqualTo("charge_declined");
    }

    @Test
    void theTtlComesFromTheConfig() throws Exception {
        assertThat(json(client.get("/_sim/config"))
                        .get("authorization_ttl_seconds")
                        .longValue())
                .isEqualTo(604_800);
        client.post("/_sim/config", "{\"authorization_ttl_seconds\": 60}");

        JsonNode body = json(client.charge("short", AUTH));

        assertThat(simulator.config().authorizationTtlSeconds()).isEqualTo(60);
        assertThat(Instant.parse(body.get("expires_at").stringValue()))
                .isEqualTo(Instant.parse(body.get("created_at").stringValue()).plusSeconds(60));
        assertThat(SimulatorConfig.defaults().withAuthorizationTtlSeconds(5).authorizationTtlSeconds())
                .isEqualTo(5);
    }

    @Test
    void theChargeShowsItsCurrentState() throws Exception {
        String auth = client.authorize("a", 1000);
        String sale = client.sale("s", 700);

        JsonNode authorized = json(client.get("/charges/" + auth));
        assertThat(authorized.get("object").stringValue()).isEqualTo("charge");
        assertThat(authorized.get("status").stringValue()).isEqualTo("authorized");
        assertThat(authorized.get("amount_capturable").longValue()).isEqualTo(1000);
        assertThat(authorized.get("amount_captured").longValue()).isZero();
        assertThat(authorized.get("voided").booleanValue()).isFalse();
        assertThat(authorized.get("dispute").isNull()).isTrue();

        client.capture(auth, "c1", amountJson(400));
        JsonNode partial = json(client.get("/charges/" + auth));
        assertThat(partial.get("status").stringValue()).isEqualTo("partially_captured");
        assertThat(partial.get("amount_capturable").longValue()).isEqualTo(600);
        assertThat(partial.get("amount_captured").longValue()).isEqualTo(400);

        simulator.advanceClock(Duration.ofDays(7));
        JsonNode lapsed = json(client.get("/charges/" + auth));
        assertThat(lapsed.get("status").stringValue()).isEqualTo("captured");
        assertThat(lapsed.get("amount_capturable").longValue()).isZero();

        JsonNode captured = json(client.get("/charges/" + sale));
        assertThat(captured.get("status").stringValue()).isEqualTo("captured");
        assertThat(captured.get("amount_captured").longValue()).isEqualTo(700);
        assertThat(captured.get("expires_at").isNull()).isTrue();

        HttpResponse<String> unknown = client.get("/charges/ch_nope");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(error(unknown)).isEqualTo("charge_not_found");
    }

    @Test
    void anUncapturedAuthorizationExpires() throws Exception {
        String auth = client.authorize("a", 1000);
        simulator.advanceClock(Duration.ofDays(7));

        assertThat(json(client.get("/charges/" + auth)).get("status").stringValue())
                .isEqualTo("expired");
    }
}
