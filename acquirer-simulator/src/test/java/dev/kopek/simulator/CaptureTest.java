package dev.kopek.simulator;

import static dev.kopek.simulator.SimClient.amountJson;
import static dev.kopek.simulator.SimClient.error;
import static dev.kopek.simulator.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class CaptureTest extends RunningSimulator {
    @Test
    void partialCapturesThenAFinalOneReleaseTheRest() throws Exception {
        String charge = client.authorize("auth", 1000);

        HttpResponse<String> first = client.capture(charge, "c1", amountJson(300));
        HttpResponse<String> last = client.capture(charge, "c2", "{\"amount\": 200, \"final\": true}");
        HttpResponse<String> after = client.capture(charge, "c3", amountJson(1));

        assertThat(first.statusCode()).isEqualTo(201);
        JsonNode body = json(first);
        assertThat(body.get("id").stringValue()).startsWith("cap_");
        assertThat(body.get("object").stringValue()).isEqualTo("capture");
        assertThat(body.get("charge_id").stringValue()).isEqualTo(charge);
        assertThat(body.get("amount").longValue()).isEqualTo(300);
        assertThat(body.get("currency").stringValue()).isEqualTo("EUR");
        assertThat(body.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(body.get("amount_capturable").longValue()).isEqualTo(700);
        assertThat(body.get("final").booleanValue()).isFalse();
        assertThat(body.get("idempotency_key").stringValue()).isEqualTo("c1");
        assertThat(json(last).get("amount_capturable").longValue()).isZero();
        assertThat(json(last).get("final").booleanValue()).isTrue();
        assertThat(after.statusCode()).isEqualTo(409);
        assertThat(error(after)).isEqualTo("capture_finalized");
        assertThat(simulator.capturedTotal(charge)).isEqualTo(500);
        JsonNode state = json(client.get("/charges/" + charge));
        assertThat(state.get("status").stringValue()).isEqualTo("captured");
        assertThat(state.get("amount_captured").longValue()).isEqualTo(500);
        assertThat(simulator.movements(charge))
                .extracting(MovementRecord::type)
                .containsExactly("authorization", "capture", "capture");
    }

    @Test
    void withoutAnAmountTheRestIsCaptured() throws Exception {
        String charge = client.authorize("auth", 1000);
        client.capture(charge, "c1", amountJson(400));

        HttpResponse<String> rest = client.capture(charge, "c2", "");

        assertThat(rest.statusCode()).isEqualTo(201);
        assertThat(json(rest).get("amount").longValue()).isEqualTo(600);
        assertThat(json(rest).get("final").booleanValue()).isTrue();
        assertThat(error(client.capture(charge, "c3", "{}"))).isEqualTo("capture_finalized");
        assertThat(simulator.capturedTotal(charge)).isEqualTo(1000);
    }

    @Test
    void refusalsMoveNothingAndReleaseTheKey() throws Exception {
        String auth = client.authorize("auth", 1000);
        String sale = client.sale("sale", 1000);
        String voided = client.authorize("auth-2", 1000);
        client.voidCharge(voided, "v");

        assertRefused(client.capture("ch_unknown", "k1", "{}"), 404, "charge_not_found");
        assertRefused(client.capture(sale, "k2", "{}"), 409, "already_captured");
        assertRefused(client.capture(voided, "k3", "{}"), 409, "authorization_voided");
        assertRefused(client.capture(auth, "k4", amountJson(1001)), 409, "amount_exceeds_capturable");
        assertThat(client.get("/charges/" + auth + "/captures?idempotency_key=k4")
                        .statusCode())
                .isEqualTo(404);
        assertThat(client.capture(auth, "k4", amountJson(1000)).statusCode())
                .as("key released")
                .isEqualTo(201);
        assertThat(simulator.capturedTotal(auth)).isEqualTo(1000);
        assertThat(simulator.movements())
                .extracting(MovementRecord::type)
                .containsExactly("authorization", "charge", "authorization", "void", "capture");
    }

    @Test
    void anExpiredAuthorizationCannotBeCaptured() throws Exception {
        simulator.configure(SimulatorConfig.defaults().withAuthorizationTtlSeconds(3_600));
        String charge = client.authorize("auth", 1000);
        simulator.advanceClock(Duration.ofSeconds(3_599));
        assertThat(client.capture(charge, "early", amountJson(100)).statusCode())
                .isEqualTo(201);

        simulator.advanceClock(Duration.ofSeconds(1));

        assertRefused(client.capture(charge, "late", amountJson(100)), 409, "authorization_expired");
        assertThat(simulator.capturedTotal(charge)).isEqualTo(100);
    }

    @Test
    void capturesHaveTheIdempotencyContract() throws Exception {
        String charge = client.authorize("auth", 1000);
        String path = "/charges/" + charge + "/captures";

        HttpResponse<byte[]> first = client.postBytes(path, "cap-key", amountJson(100));
        HttpResponse<byte[]> replay = client.postBytes(path, "cap-key", amountJson(100));
        HttpResponse<String> other = client.capture(charge, "cap-key", amountJson(200));
        HttpResponse<String> lookup = client.get(path + "?idempotency_key=cap-key");

        assertThat(replay.statusCode()).isEqualTo(201);
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(other.statusCode()).isEqualTo(422);
        assertThat(error(other)).isEqualTo("idempotency_key_reused");
        assertThat(lookup.statusCode()).isEqualTo(200);
        assertThat(lookup.body().getBytes()).isEqualTo(first.body());
        assertThat(client.get(path + "?idempotency_key=never").statusCode()).isEqualTo(404);
        assertThat(simulator.capturedTotal(charge)).isEqualTo(100);
        assertThat(simulator.lookups("capture", "cap-key")).isEqualTo(1);
        assertThat(simulator.lookups("cap-key"))
                .as("charge lookups are another scope")
                .isZero();
        assertThat(simulator.requests("capture", "cap-key")).isEqualTo(3);
        assertThat(client.capture(charge, null, "{}").statusCode()).isEqualTo(400);
        assertThat(client.get(path).statusCode()).isEqualTo(400);
    }

    @Test
    void keysAreScopedPerEndpointAndACaptureKeyBelongsToItsCharge() throws Exception {
        String charge = client.authorize("shared", 1000);
        String other = client.authorize("other", 1000);

        assertThat(client.capture(charge, "shared", amountJson(500)).statusCode())
                .isEqualTo(201);
        assertThat(client.refund(charge, "shared", 100).statusCode()).isEqualTo(201);
        assertThat(client.capture(other, "shared", amountJson(500)).statusCode())
                .isEqualTo(422);
        assertThat(client.get("/charges/" + other + "/captures?idempotency_key=shared")
                        .statusCode())
                .isEqualTo(404);
        assertThat(simulator.capturedTotal(charge)).isEqualTo(500);
        assertThat(simulator.refundedTotal(charge)).isEqualTo(100);
    }

    @Test
    void aDuplicateWhileInFlightGets409() throws Exception {
        String charge = client.authorize("auth", 1000);
        simulator.configure(SimulatorConfig.defaults().withLatency(300, 300));
        String path = "/charges/" + charge + "/captures";
        CompletableFuture<HttpResponse<String>> first = client.postAsync(path, "busy", amountJson(100));
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (client.get(path + "?idempotency_key=busy").statusCode() != 409) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.sleep(5);
        }

        HttpResponse<String> duplicate = client.capture(charge, "busy", amountJson(100));

        assertRefused(duplicate, 409, "request_in_progress");
        assertThat(client.capture(charge, "busy", amountJson(101)).statusCode()).isEqualTo(422);
        assertThat(first.get().statusCode()).isEqualTo(201);
        assertThat(simulator.capturedTotal(charge)).isEqualTo(100);
    }

    @Test
    void twentyConcurrentCapturesNeverExceedTheAuthorization() throws Exception {
        String charge = client.authorize("auth", 1000);
        int threads = 20;
        CyclicBarrier barrier = new CyclicBarrier(threads);
        List<Future<HttpResponse<String>>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int i = 0; i < threads; i++) {
                String key = "race-" + i;
                results.add(pool.submit(() -> {
                    barrier.await();
                    return client.capture(charge, key, amountJson(150));
                }));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<HttpResponse<String>> result : results) {
                HttpResponse<String> response = result.get();
                statuses.add(response.statusCode());
                if (response.statusCode() == 409) {
                    assertThat(error(response)).isEqualTo("amount_exceeds_capturable");
                }
            }
            assertThat(statuses).filteredOn(s -> s == 201).hasSize(6);
            assertThat(statuses).filteredOn(s -> s == 409).hasSize(14);
        }
        assertThat(simulator.capturedTotal(charge)).isEqualTo(900);
        assertThat(json(client.get("/charges/" + charge))
                        .get("amount_capturable")
                        .longValue())
                .isEqualTo(100);
    }

    static void assertRefused(HttpResponse<String> response, int status, String code) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(error(response)).isEqualTo(code);
    }
}
