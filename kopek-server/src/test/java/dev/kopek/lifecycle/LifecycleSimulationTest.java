package dev.kopek.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import java.time.Duration;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * A seeded simulation (tigerbeetle's VOPR in miniature): random captures, voids, refunds, replays and PSP faults
 * on one authorization, an auditor checking L7 and the state machine after every step, and at the end the
 * amounts compared with the simulator's own record. A failure names its seed; rerun with that seed to replay it.
 */
class LifecycleSimulationTest extends LifecycleSupport {

    private static final Set<String> FINAL = Set.of("voided", "expired", "refunded", "declined", "failed");
    private static final String[] FAULTS = {"5xx_after_success", "5xx_no_effect", "declined", "429",
        "reset_after_success"};

    static LongStream seeds() {
        long base = Long.getLong("kopek.simulation.seed", System.nanoTime());
        return LongStream.range(0, 6).map(i -> base + i);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomOperationsKeepTheMoneyLaws(long seed) {
        Random random = new Random(seed);
        Api api = newMerchant();
        long authorizedAmount = 1_000 + random.nextInt(100_000);
        JsonNode start = authorize(api, newReference(), authorizedAmount);
        String id = start.get("id").asString();
        String charge = start.get("psp_reference").asString();
        String previousStatus = "authorized";
        Api.Response last = null;
        String lastKey = null;
        String lastPath = null;
        String lastBody = null;

        for (int step = 0; step < 25; step++) {
            int choice = random.nextInt(10);
            if (choice < 2 && random.nextBoolean()) {
                SIMULATOR.armFault(random.nextBoolean() ? "capture" : "refund", charge,
                        FAULTS[random.nextInt(FAULTS.length)], 1);
            }
            String key = Api.newKey();
            String path;
            String body;
            if (choice < 4) {
                path = "/v1/payments/" + id + "/capture";
                body = "{\"amount\":" + (1 + random.nextInt((int) Math.max(1, authorizedAmount / 3)))
                        + (random.nextInt(5) == 0 ? ",\"final\":true}" : "}");
            } else if (choice < 5) {
                path = "/v1/payments/" + id + "/void";
                body = "";
            } else if (choice < 8) {
                path = "/v1/payments/" + id + "/refunds";
                body = "{\"amount\":" + (1 + random.nextInt((int) Math.max(1, authorizedAmount / 4))) + "}";
            } else if (choice < 9 && last != null) {
                key = lastKey;
                path = lastPath;
                body = lastBody;
            } else {
                clock.advance(Duration.ofSeconds(31));
                reconciler.reconcileOnce();
                path = null;
                body = null;
            }
            if (path != null) {
                last = api.post(path, key, body);
                assertThat(last.status()).as("seed %d step %d: %s %s -> %s", seed, step, path, body, last.body())
                        .isIn(200, 202, 402, 409);
                lastKey = key;
                lastPath = path;
                lastBody = body;
            }
            previousStatus = audit(api, id, previousStatus, seed, step);
        }
        for (int round = 0; round < 4; round++) {
            clock.advance(Duration.ofSeconds(31));
            reconciler.reconcileOnce();
        }
        JsonNode end = payment(api, id);
        audit(api, id, previousStatus, seed, -1);
        assertThat(amount(end, "amount_captured")).as("seed %d: captured agrees with the PSP", seed)
                .isEqualTo(capturedAtPsp(charge));
        assertThat(amount(end, "amount_refunded") + amount(end, "amount_refund_pending"))
                .as("seed %d: refunded agrees with the PSP", seed)
                .isGreaterThanOrEqualTo(refundedAtPsp(charge));
        assertThat(amount(end, "amount_refund_pending")).as("seed %d: nothing left pending", seed).isZero();
        assertThat(amount(end, "amount_refunded")).as("seed %d", seed).isEqualTo(refundedAtPsp(charge));
    }

    private String audit(Api api, String id, String previous, long seed, int step) {
        JsonNode p = payment(api, id);
        String status = p.get("status").asString();
        long authorized = amount(p, "amount_authorized");
        long captured = amount(p, "amount_captured");
        long refunded = amount(p, "amount_refunded");
        long pending = amount(p, "amount_refund_pending");
        String where = "seed " + seed + " step " + step + ": " + p;
        assertThat(captured).as(where).isBetween(0L, authorized);
        assertThat(refunded + pending).as(where).isBetween(0L, captured);
        assertThat(amount(p, "amount_capturable")).as(where).isBetween(0L, authorized - captured);
        if (FINAL.contains(previous)) {
            assertThat(status).as(where + " left final state " + previous).isEqualTo(previous);
        }
        return status;
    }
}
