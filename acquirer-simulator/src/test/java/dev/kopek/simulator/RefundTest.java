package dev.kopek.simulator;

import static dev.kopek.simulator.CaptureTest.assertRefused;
import static dev.kopek.simulator.SimClient.amountJson;
import static dev.kopek.simulator.SimClient.json;
import static dev.kopek.simulator.SimClient.refundJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class RefundTest extends RunningSimulator {
    @Test
    void refundsNeverExceedWhatWasCaptured() throws Exception {
        String charge = client.sale("sale", 1000);

        HttpResponse<String> first = client.refund(charge, "r1", 300);
        HttpResponse<String> tooMuch = client.refund(charge, "r2", 800);
        HttpResponse<String> rest = client.post("/refunds", "r3", "{\"charge_id\": \"" + charge + "\"}");

        assertThat(first.statusCode()).isEqualTo(201);
        JsonNode body = json(first);
        assertThat(body.get("id").stringValue()).startsWith("re_");
        assertThat(body.get("object").stringValue()).isEqualTo("refund");
        assertThat(body.get("charge_id").stringValue()).isEqualTo(charge);
        assertThat(body.get("amount").longValue()).isEqualTo(300);
        assertThat(body.get("currency").stringValue()).isEqualTo("EUR");
        assertThat(body.get("status").stringValue()).isEqualTo("succeeded");
        assertRefused(tooMuch, 409, "amount_exceeds_refundable");
        assertThat(json(rest).get("amount").longValue()).isEqualTo(700);
        assertRefused(client.refund(charge, "r4", 1), 409, "amount_exceeds_refundable");
        assertThat(simulator.refundedTotal(charge)).isEqualTo(1000);
        assertThat(json(client.get("/charges/" + charge)).get("amount_refunded").longValue())
                .isEqualTo(1000);
    }

    @Test
    void onlyTheCapturedPartOfAnAuthorizationIsRefundable() throws Exception {
        String charge = client.authorize("auth", 1000);
        assertRefused(client.refund(charge, "r0", 1), 409, "amount_exceeds_refundable");
        client.capture(charge, "c", amountJson(400));

        assertRefused(client.refund(charge, "r1", 401), 409, "amount_exceeds_refundable");
        assertThat(client.refund(charge, "r2", 400).statusCode()).isEqualTo(201);
    }

    @Test
    void unknownChargesAndBadBodiesAreRefused() throws Exception {
        assertRefused(client.refund("ch_unknown", "r1", 10), 404, "charge_not_found");
        assertThat(client.post("/refunds", "r2", "{\"amount\": 10}").statusCode())
                .isEqualTo(400);
        assertThat(client.post("/refunds", "r3", "{\"charge_id\": \"ch_x\", \"amount\": 0}")
                        .statusCode())
                .isEqualTo(400);
        assertThat(client.post("/refunds", "r4", "{\"charge_id\": \"ch_x\", \"amount\": 1.5}")
                        .statusCode())
                .isEqualTo(400);
        assertThat(client.post("/refunds", null, refundJson("ch_x", 1)).statusCode())
                .isEqualTo(400);
        assertThat(simulator.movements()).isEmpty();
    }

    @Test
    void aRefundDeclinedByTheCardIsStoredAndReplayed() throws Exception {
        String charge = client.sale("sale", 1000, "pm_refund_declined");

        HttpResponse<String> declined = client.refund(charge, "r1", 100);
        HttpResponse<String> replay = client.refund(charge, "r1", 100);
        HttpResponse<String> another = client.refund(charge, "r2", 100);

        assertThat(declined.statusCode()).isEqualTo(402);
        JsonNode body = json(declined);
        assertThat(body.get("id").stringValue()).startsWith("re_");
        assertThat(body.get("status").stringValue()).isEqualTo("declined");
        assertThat(body.get("decline_code").stringValue()).isEqualTo("refund_declined");
        assertThat(replay.statusCode()).isEqualTo(402);
        assertThat(replay.body()).isEqualTo(declined.body());
        assertThat(client.get("/refunds?idempotency_key=r1").body()).isEqualTo(declined.body());
        assertThat(another.statusCode()).as("every refund of that charge").isEqualTo(402);
        assertThat(simulator.refundedTotal(charge)).isZero();
        assertThat(simulator.movements(charge))
                .filteredOn(m -> m.type().equals("refund"))
                .extracting(MovementRecord::status)
                .containsExactly("declined", "declined");
    }

    @Test
    void refundsHaveTheIdempotencyContract() throws Exception {
        String charge = client.sale("sale", 1000);

        HttpResponse<byte[]> first = client.postBytes("/refunds", "rk", refundJson(charge, 100));
        HttpResponse<byte[]> replay = client.postBytes("/refunds", "rk", refundJson(charge, 100));

        assertThat(replay.body()).isEqualTo(first.body());
        assertRefused(client.refund(charge, "rk", 101), 422, "idempotency_key_reused");
        assertThat(client.get("/refunds?idempotency_key=rk").statusCode()).isEqualTo(200);
        assertThat(client.get("/refunds?idempotency_key=other").statusCode()).isEqualTo(404);
        assertThat(simulator.lookups("refund", "rk")).isEqualTo(1);
        assertThat(simulator.requests("refund", "rk")).isEqualTo(3);
        assertThat(simulator.refundedTotal(charge)).isEqualTo(100);
    }

    @Test
    void twentyConcurrentRefundsNeverExceedTheCapturedAmount() throws Exception {
        String charge = client.sale("sale", 1000);
        int threads = 20;
        CyclicBarrier barrier = new CyclicBarrier(threads);
        List<Future<HttpResponse<String>>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int i = 0; i < threads; i++) {
                String key = "race-" + i;
                results.add(pool.submit(() -> {
                    barrier.await();
                    return client.refund(charge, key, 300);
                }));
            }
            int succeeded = 0;
            for (Future<HttpResponse<String>> result : results) {
                HttpResponse<String> response = result.get();
                if (response.statusCode() == 201) {
                    succeeded++;
                } else {
                    assertRefused(response, 409, "amount_exceeds_refundable");
                }
            }
            assertThat(succeeded).isEqualTo(3);
        }
        assertThat(simulator.refundedTotal(charge)).isEqualTo(900);
        assertThat(simulator.refundedTotal(charge)).isLessThanOrEqualTo(simulator.capturedTotal(charge));
    }
}
