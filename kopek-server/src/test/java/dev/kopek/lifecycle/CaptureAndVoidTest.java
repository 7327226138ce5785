package dev.kopek.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PaymentId;
import dev.kopek.support.Api;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
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
        // The final capture and the release of the rest are posted by one statement, in one millisecond: the journal
        // still lists them in the order they were made, after the hold and the first capture.
        List<String> kinds = new ArrayList<>();
        api.get("/v1/ledger/transactions?payment_id=" + id)
                .json()
                .get("data")
                .forEach(tx -> kinds.add(tx.get("kind").asString()));
        assertThat(kinds).containsExactly("authorization_held", "captured", "captured", "authorization_released");

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
        // Each capture's phase 3 computes the hold it closes in its own statement: serialized by the payment's row,
        // each must see what the others closed, so the journal holds exactly what is left, never less.
        UUID payment = PaymentId.parse(id).orElseThrow().value();
        assertThat(journal("""
                        SELECT COALESCE(sum(amount_minor), 0) FROM ledger_transactions
                         WHERE payment_id = :id AND kind = 'CAPTURED'
                        """, payment)).as("seed %d", seed).isEqualTo(accepted);
        assertThat(openHold(payment)).as("seed %d: the open hold", seed).isEqualTo(10_000 - accepted);
    }

    private long version(String id) {
        return journal(
                "SELECT version FROM payments WHERE id = :id",
                PaymentId.parse(id).orElseThrow().value());
    }

    /** What is still open of the payment's authorization hold, by its journal. */
    private long openHold(UUID payment) {
        return journal("""
                SELECT COALESCE(sum(CASE e.side WHEN 'credit' THEN e.amount_minor ELSE -e.amount_minor END), 0)
                  FROM ledger_transactions t
                  JOIN ledger_entries e ON e.transaction_id = t.id
                  JOIN ledger_accounts a ON a.id = e.account_id
                 WHERE t.payment_id = :id AND a.type = 'HOLDS_PAYABLE'
                """, payment);
    }

    private long journal(String sql, UUID payment) {
        return jdbc.sql(sql).param("id", payment).query(Long.class).single();
    }

    /**
     * A new capture key's phase 1 is one statement that reserves before it claims the key: many requests with one
     * key released together still reserve once, store one capture and capture once at the PSP; every other
     * request answers 200 (a replay) or 409 (in flight), never a 500.
     */
    @Test
    void concurrentCapturesWithOneKeyCaptureOnce() throws Exception {
        Api api = newMerchant();
        var authorized = authorize(api, newReference(), 10_000);
        String id = authorized.get("id").asString();
        String key = Api.newKey();

        List<Api.Response> answers = dev.kopek.support.Race.of(
                20, i -> api.post("/v1/payments/" + id + "/capture", key, "{\"amount\":4000,\"final\":true}"));

        assertThat(answers).allSatisfy(a -> assertThat(a.status()).isIn(200, 409));
        assertThat(capturedAtPsp(authorized.get("psp_reference").asString())).isEqualTo(4_000);
        assertThat(jdbc.sql("SELECT count(*) FROM payment_operations WHERE payment_id = :id AND kind = 'capture'")
                        .param("id", PaymentId.parse(id).orElseThrow().value())
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
        var after = payment(api, id);
        assertThat(amount(after, "amount_captured")).isEqualTo(4_000);
        assertThat(amount(after, "amount_capturable")).isZero();
    }

    /** The same for a void: one key, many requests at once, one void at the PSP and one void stored. */
    @Test
    void concurrentVoidsWithOneKeyVoidOnce() throws Exception {
        Api api = newMerchant();
        var authorized = authorize(api, newReference(), 10_000);
        String id = authorized.get("id").asString();
        String key = Api.newKey();

        List<Api.Response> answers =
                dev.kopek.support.Race.of(20, i -> api.post("/v1/payments/" + id + "/void", key, "{}"));

        assertThat(answers).allSatisfy(a -> assertThat(a.status()).isIn(200, 409));
        assertThat(SIMULATOR.movements(authorized.get("psp_reference").asString()).stream()
                        .filter(m -> m.type().equals("void") && m.status().equals("succeeded")))
                .hasSize(1);
        assertThat(jdbc.sql("SELECT count(*) FROM payment_operations WHERE payment_id = :id AND kind = 'void'")
                        .param("id", PaymentId.parse(id).orElseThrow().value())
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
        assertThat(payment(api, id).get("status").asString()).isEqualTo("voided");
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

    /**
     * Expiry closes a hold in its own transaction: the rest released once, the payment moved one version, its event
     * written once, the release posted against what is still open. A second pass finds nothing to close.
     */
    @Test
    void expiryReleasesTheRestOnceWithItsEventAndItsPosting() {
        Api api = newMerchant();
        String untouched = authorize(api, newReference(), 5_000).get("id").asString();
        String partly = authorize(api, newReference(), 8_000).get("id").asString();
        assertThat(capture(api, partly, "{\"amount\":3000}").status()).isEqualTo(200);
        long untouchedVersion = version(untouched);
        long partlyVersion = version(partly);

        clock.advance(Duration.ofDays(8));
        reconciler.reconcileOnce();
        reconciler.reconcileOnce();

        assertExpiredOnce(api, untouched, "expired", "payment.expired", untouchedVersion, 5_000);
        assertExpiredOnce(api, partly, "captured", "payment.authorization_closed", partlyVersion, 5_000);
    }

    private void assertExpiredOnce(Api api, String id, String status, String event, long versionBefore, long released) {
        var after = payment(api, id);
        assertThat(after.get("status").asString()).isEqualTo(status);
        assertThat(amount(after, "amount_capturable")).isZero();
        assertThat(version(id)).isEqualTo(versionBefore + 1);
        UUID payment = PaymentId.parse(id).orElseThrow().value();
        assertThat(journal("""
                        SELECT count(*) FROM outbox WHERE resource_id = :id AND event_type = '%s'
                        """.formatted(event), payment)).isEqualTo(1);
        assertThat(journal("""
                        SELECT COALESCE(sum(amount_minor), 0) FROM ledger_transactions
                         WHERE payment_id = :id AND kind = 'AUTHORIZATION_RELEASED'
                        """, payment)).isEqualTo(released);
        assertThat(openHold(payment)).as("the open hold").isZero();
    }

    private static void assertRefused(Api.Response response, String code) {
        assertThat(response.status()).isEqualTo(409);
        assertThat(response.text("code")).isEqualTo(code);
    }
}
