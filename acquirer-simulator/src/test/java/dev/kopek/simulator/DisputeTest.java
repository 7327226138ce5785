package dev.kopek.simulator;

import static dev.kopek.simulator.CaptureTest.assertRefused;
import static dev.kopek.simulator.SimClient.amountJson;
import static dev.kopek.simulator.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpResponse;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class DisputeTest extends SimulatorWithReceiver {

    @Test
    void aWonDisputeTakesTheMoneyAndGivesItBack() throws Exception {
        String charge = client.sale("sale", 1000);

        HttpResponse<String> opened =
                client.post("/_sim/charges/" + charge + "/dispute", "{\"amount\": 400, \"reason\": \"fraudulent\"}");

        assertThat(opened.statusCode()).isEqualTo(201);
        JsonNode dispute = json(opened);
        String id = dispute.get("id").stringValue();
        assertThat(id).startsWith("dp_");
        assertThat(dispute.get("status").stringValue()).isEqualTo("open");
        assertThat(dispute.get("amount").longValue()).isEqualTo(400);
        assertThat(dispute.get("reason").stringValue()).isEqualTo("fraudulent");
        assertThat(receiver.next("dispute.opened").json().get("data").get("id").stringValue())
                .isEqualTo(id);
        assertThat(json(client.get("/charges/" + charge))
                        .get("dispute")
                        .get("status")
                        .stringValue())
                .isEqualTo("open");
        assertRefused(client.refund(charge, "r", 100), 409, "charge_disputed");

        HttpResponse<String> won = client.post("/_sim/disputes/" + id + "/resolve", "{\"outcome\": \"won\"}");

        assertThat(json(won).get("status").stringValue()).isEqualTo("won");
        assertThat(receiver.next("dispute.won").json().get("data").get("status").stringValue())
                .isEqualTo("won");
        assertThat(simulator.movements(charge))
                .extracting(MovementRecord::type, MovementRecord::amount)
                .containsExactly(
                        Tuple.tuple("charge", 1000L),
                        Tuple.tuple("chargeback", 400L),
                        Tuple.tuple("chargeback_reversal", 400L));
        assertRefused(
                client.post("/_sim/disputes/" + id + "/resolve", "{\"outcome\": \"lost\"}"), 409, "dispute_closed");
        assertThat(client.refund(charge, "r2", 100).statusCode())
                .as("refundable again once won")
                .isEqualTo(201);
    }

    @Test
    void aLostDisputeKeepsTheMoneyGone() throws Exception {
        String charge = client.authorize("auth", 1000);
        client.capture(charge, "c", amountJson(600));

        String id = simulator.openDispute(charge, null, null);
        simulator.resolveDispute(id, false);

        assertThat(receiver.next("dispute.lost")
                        .json()
                        .get("data")
                        .get("amount")
                        .longValue())
                .isEqualTo(600);
        assertThat(simulator.movements(charge))
                .extracting(MovementRecord::type)
                .containsExactly("authorization", "capture", "chargeback");
        assertThat(json(client.get("/charges/" + charge))
                        .get("dispute")
                        .get("reason")
                        .stringValue())
                .isEqualTo("fraudulent");
        assertThatThrownBy(() -> simulator.resolveDispute(id, true))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("dispute_closed");
    }

    @Test
    void onlyCapturedMoneyCanBeDisputedOnce() throws Exception {
        String auth = client.authorize("auth", 1000);
        String sale = client.sale("sale", 1000);
        client.refund(sale, "r", 700);

        assertRefused(client.post("/_sim/charges/" + auth + "/dispute", "{}"), 409, "charge_not_captured");
        assertRefused(client.post("/_sim/charges/ch_nope/dispute", "{}"), 404, "charge_not_found");
        assertRefused(
                client.post("/_sim/charges/" + sale + "/dispute", "{\"amount\": 1001}"),
                409,
                "amount_exceeds_disputable");
        assertThat(client.post("/_sim/charges/" + sale + "/dispute", "").statusCode())
                .isEqualTo(201);
        assertRefused(client.post("/_sim/charges/" + sale + "/dispute", "{}"), 409, "already_disputed");
        assertRefused(
                client.post("/_sim/disputes/dp_nope/resolve", "{\"outcome\": \"won\"}"), 404, "dispute_not_found");
        assertThat(client.post("/_sim/disputes/dp_nope/resolve", "{\"outcome\": \"draw\"}")
                        .statusCode())
                .isEqualTo(400);
        assertThatThrownBy(() -> simulator.openDispute("ch_nope", 1L, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(simulator.movements(sale))
                .filteredOn(m -> m.type().equals("chargeback"))
                .singleElement()
                .satisfies(m -> assertThat(m.amount()).isEqualTo(300));
    }
}
