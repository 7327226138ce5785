package dev.kopek.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Authorize now, capture later: partial captures add up to at most the authorization; voids and expiry release it. */
class CaptureAndVoidTest extends LifecycleSupport {

    @Test
    void authorizeThenCaptureInPartsThenFinal() {
        Api api = newMerchant();
        var authorized = authorize(api, newReference(), 10_000);
        String id = authorized.get("id").asString();
        String charge = authorized.get("psp_reference").asString();
        assertThat(amount(authorized, "amount_capturable")).isEqualTo(10_000);
        assertThat(authorized.get("capture_before").asString()).isNotNull();

        String key = Api.newKey();
        Api.Response first = api.post("/v1/payments/" + id + "/capture", key, "{\"amount\":3000}");
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.text("status")).isEqualTo("captured");
        assertThat(amount(first.json(), "amount_capturable")).isEqualTo(7_000);
        Api.Response replay = api.post("/v1/payments/" + id + "/capture", key, "{\"amount\":3000}");
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(api.post("/v1/payments/" + id + "/capture", key, "{\"amount\":3001}")
                        .status())
                .isEqualTo(422);

        Api.Response last = capture(api, id, "{\"amount\":2000,\"final\":true}");
        assertThat(last.status()).isEqualTo(200);
        var after = last.json();
        assertThat(amount(after, "amount_captured")).isEqualTo(5_000);
        assertThat(amount(after, "amount_capturable")).isZero();
        assertThat(capturedAtPsp(charge)).isEqualTo(5_000);

        Api.Response more = capture(api, id, "{\"amount\":1}");
        assertThat(more.status()).isEqualTo(409);
        assertThat(more.text("code")).isEqualTo("capture_finalized");
    }

    @Test
    void concurrentPartialCapturesNeverExceedTheAuthorization() throws Exception {
        Api api = newMerchant();
        var authorized = authorize(api, newReference(), 10_000);
        String id = authorized.get("id").asString();
        long seed = System.nanoTime();
        long[] amounts = new Random(seed).longs(20, 100, 2_000).toArray();

        List<Api.Response> answers =
                dev.kopek.support.Race.of(20, i -> capture(api, id, "{\"amount\":" + amounts[i] + "}"));

        long accepted = 0;
        for (int i = 0; i < answers.size(); i++) {
            assertThat(answers.get(i).status()).as("seed %d", seed).isIn(200, 409);
            accepted += answers.get(i).status() == 200 ? amounts[i] : 0;
        }
        var after = payment(api, id);
        assertThat(accepted).as("seed %d", seed).isLessThanOrEqualTo(10_000);
        assertThat(amount(after, "amount_captured")).as("seed %d", seed).isEqualTo(accepted);
        assertThat(capturedAtPsp(authorized.get("psp_reference").asString()))
                .as("seed %d", seed)
                .isEqualTo(accepted);
    }

    @Test
    void illegalOperationsAreNamedRefusalsThatChangeNothing() {
        Api api = newMerchant();
        var authorized = authorize(api, newReference(), 5_000);
        String id = authorized.get("id").asString();
        assertRefused(refund(api, id, 100), "payment_not_captured");

        assertThat(voidIt(api, id).status()).isEqualTo(200);
        var voided = payment(api, id);
        assertThat(voided.get("status").asString()).isEqualTo("voided");
        assertRefused(capture(api, id, "{\"amount\":100}"), "authorization_voided");
        assertThat(payment(api, id)).isEqualTo(voided);

        var other = authorize(api, newReference(), 5_000);
        String otherId = other.get("id").asString();
        assertThat(capture(api, otherId, "{\"amount\":1000}").status()).isEqualTo(200);
        var captured = payment(api, otherId);
        assertRefused(voidIt(api, otherId), "already_captured");
        assertRefused(capture(api, otherId, "{\"amount\":4001}"), "amount_exceeds_capturable");
        assertThat(payment(api, otherId)).isEqualTo(captured);

        var automatic = charge(api, newReference(), 5_000);
        assertRefused(capture(api, automatic.get("id").asString(), "{}"), "payment_not_authorized");
        assertThat(capture(api, "pay_00000000000000000000000000000000", "{}").status())
                .isEqualTo(404);
    }

    @Test
    void captureAfterExpiryIsRefusedAndTheHoldIsReleased() {
        Api api = newMerchant();
        var authorized = authorize(api, newReference(), 5_000);
        String id = authorized.get("id").asString();

        clock.advance(Duration.ofDays(8));
        assertRefused(capture(api, id, "{\"amount\":100}"), "authorization_expired");
        reconciler.reconcileOnce();

        var expired = payment(api, id);
        assertThat(expired.get("status").asString()).isEqualTo("expired");
        assertThat(amount(expired, "amount_capturable")).isZero();
        assertThat(capturedAtPsp(authorized.get("psp_reference").asString())).isZero();
        String reference = expired.get("reference").asString();
        assertThat(api.pay(Api.newKey(), Api.payment(reference, 5_000, "EUR", "pm_ok"))
                        .status())
                .as("an expired authorization frees the intent")
                .isEqualTo(201);
    }

    private static void assertRefused(Api.Response response, String code) {
        assertThat(response.status()).isEqualTo(409);
        assertThat(response.text("code")).isEqualTo(code);
    }
}
