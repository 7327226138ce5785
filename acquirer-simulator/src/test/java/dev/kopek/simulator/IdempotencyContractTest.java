package dev.kopek.simulator;

import static dev.kopek.simulator.SimClient.chargeJson;
import static dev.kopek.simulator.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class IdempotencyContractTest extends RunningSimulator {
    @Test
    void sameKeyAndBodyReplaysTheFirstResultByteForByte() throws Exception {
        HttpResponse<byte[]> first = client.chargeBytes("key-1", chargeJson("pm_ok"));
        HttpResponse<byte[]> second = client.chargeBytes("key-1", chargeJson("pm_ok"));

        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(second.statusCode()).isEqualTo(201);
        assertThat(second.body()).isEqualTo(first.body());
        assertThat(first.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(simulator.moneyMovements("key-1")).isEqualTo(1);
        assertThat(simulator.chargeRequests("key-1")).isEqualTo(2);
        assertThat(simulator.charges()).hasSize(1);
    }

    @Test
    void chargeBodyHasTheDocumentedShape() throws Exception {
        var body = json(client.charge("key-shape", chargeJson(4_200, "USD", "pm_card_visa", "inv-7")));

        assertThat(body.get("id").stringValue()).startsWith("ch_");
        assertThat(body.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(body.get("amount").longValue()).isEqualTo(4_200);
        assertThat(body.get("currency").stringValue()).isEqualTo("USD");
        assertThat(body.get("payment_method").stringValue()).isEqualTo("pm_card_visa");
        assertThat(body.get("reference").stringValue()).isEqualTo("inv-7");
        assertThat(body.get("idempotency_key").stringValue()).isEqualTo("key-shape");
        assertThat(body.get("created_at").stringValue())
                .isEqualTo(simulator.charges().getFirst().createdAt().toString());
        assertThat(body.has("decline_code")).isFalse();
    }

    @Test
    void sameKeyWithAnotherBodyIsRejectedAndChargesNothing() throws Exception {
        client.charge("key-2", chargeJson(1_000, "EUR", "pm_ok", "order-1"));

        for (String other : List.of(
                chargeJson(1_001, "EUR", "pm_ok", "order-1"),
                chargeJson(1_000, "USD", "pm_ok", "order-1"),
                chargeJson(1_000, "EUR", "pm_other", "order-1"),
                chargeJson(1_000, "EUR", "pm_ok", "order-2"),
                chargeJson(1_000, "EUR", "pm_ok", null))) {
            HttpResponse<String> response = client.charge("key-2", other);
            assertThat(response.statusCode()).as(other).isEqualTo(422);
            assertThat(json(response).get("error").stringValue()).isEqualTo("idempotency_key_reused");
        }
        assertThat(simulator.moneyMovements("key-2")).isEqualTo(1);
    }

    @Test
    void twentyConcurrentDuplicatesMoveMoneyOnce() throws Exception {
        simulator.configure(SimulatorConfig.defaults().withSlow(300, 300));
        int threads = 20;
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    go.await();
                    return client.charge("race", chargeJson("pm_slow"));
                }));
            }
            go.countDown();
            List<Integer> statuses = new ArrayList<>();
            List<String> successBodies = new ArrayList<>();
            for (Future<HttpResponse<String>> result : results) {
                HttpResponse<String> response = result.get();
                statuses.add(response.statusCode());
                if (response.statusCode() == 201) {
                    successBodies.add(response.body());
                }
            }
            assertThat(statuses).containsOnly(201, 409).contains(201);
            assertThat(successBodies).allMatch(b -> b.equals(successBodies.getFirst()));
        }
        assertThat(simulator.moneyMovements("race")).isEqualTo(1);
        assertThat(simulator.charges()).hasSize(1);
    }

    @Test
    void whileInFlightDuplicatesGet409AndOtherBodies422() throws Exception {
        simulator.configure(SimulatorConfig.defaults().withSlow(400, 400));
        CompletableFuture<HttpResponse<String>> first = client.chargeAsync("busy", chargeJson("pm_slow"));
        awaitLookupStatus("busy", 409);

        HttpResponse<String> duplicate = client.charge("busy", chargeJson("pm_slow"));
        assertThat(duplicate.statusCode()).isEqualTo(409);
        assertThat(json(duplicate).get("error").stringValue()).isEqualTo("request_in_progress");
        assertThat(client.charge("busy", chargeJson("pm_ok")).statusCode()).isEqualTo(422);

        assertThat(first.get().statusCode()).isEqualTo(201);
        HttpResponse<String> lookup = client.lookup("busy");
        assertThat(lookup.statusCode()).isEqualTo(200);
        assertThat(lookup.body()).isEqualTo(first.get().body());
        assertThat(simulator.moneyMovements("busy")).isEqualTo(1);
    }

    @Test
    void afterTheWindowTheKeyIsForgottenAndARepeatChargesAgain() throws Exception {
        HttpResponse<String> first = client.charge("old-key", chargeJson("pm_ok"));
        simulator.advanceClock(Duration.ofSeconds(SimulatorConfig.defaults().keyWindowSeconds() - 1));
        assertThat(client.lookup("old-key").statusCode()).isEqualTo(200);

        simulator.advanceClock(Duration.ofSeconds(1));
        assertThat(client.lookup("old-key").statusCode()).isEqualTo(404);
        HttpResponse<String> again = client.charge("old-key", chargeJson("pm_ok"));

        assertThat(again.statusCode()).isEqualTo(201);
        assertThat(json(again).get("id")).isNotEqualTo(json(first).get("id"));
        assertThat(simulator.moneyMovements("old-key")).isEqualTo(2);
        assertThat(client.lookup("old-key").body()).isEqualTo(again.body());
    }

    @Test
    void aShortWindowFromTheConfigApplies() throws Exception {
        client.post("/_sim/config", "{\"key_window_seconds\": 60}");
        client.charge("short", chargeJson("pm_ok"));
        HttpResponse<String> advanced = client.post("/_sim/clock/advance", "{\"seconds\": 60}");

        assertThat(advanced.statusCode()).isEqualTo(200);
        assertThat(json(advanced).get("now").stringValue()).endsWith("Z");
        assertThat(client.charge("short", chargeJson(5, "EUR", "pm_ok", null)).statusCode())
                .isEqualTo(201);
        assertThat(simulator.moneyMovements("short")).isEqualTo(2);
    }

    @Test
    void keysAreScopedByTheirExactString() throws Exception {
        client.charge("Key", chargeJson("pm_ok"));
        client.charge("key", chargeJson("pm_ok"));

        assertThat(simulator.moneyMovements("Key")).isEqualTo(1);
        assertThat(simulator.moneyMovements("key")).isEqualTo(1);
    }

    @Test
    void lookupsAreCountedPerKeyWhateverTheirAnswer() throws Exception {
        client.charge("counted", chargeJson("pm_ok"));
        client.lookup("counted");
        client.lookup("counted");
        HttpResponse<String> missing = client.lookup("never-used");

        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(json(missing).get("error").stringValue()).isEqualTo("not_found");
        assertThat(simulator.lookups("counted")).isEqualTo(2);
        assertThat(simulator.lookups("never-used")).isEqualTo(1);
        assertThat(simulator.lookups("other")).isZero();
    }

    private void awaitLookupStatus(String key, int status) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (client.lookup(key).statusCode() != status) {
            assertThat(System.nanoTime()).as("lookup never returned " + status).isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
