package dev.kopek.payments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import org.junit.jupiter.api.Test;

/** The retry contract of docs/design.md, one rule per test, checked over HTTP and at the PSP. */
class PaymentContractTest extends IntegrationTest {

    @Test
    void approvedPaymentIsCapturedAndChargedOnce() {
        Api api = newMerchant();
        String reference = newReference();
        Api.Response created = api.pay(Api.newKey(), Api.payment(reference, 499_000, "RUB", "pm_ok"));

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.text("status")).isEqualTo("captured");
        assertThat(created.json().get("amount_captured").asLong()).isEqualTo(499_000);
        assertThat(created.text("id")).startsWith("pay_");
        assertThat(created.header("Idempotent-Replayed")).isNull();
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    @Test
    void retryAfterFinalAnswerReplaysTheSameBytes() {
        Api api = newMerchant();
        String key = Api.newKey();
        String reference = newReference();
        Api.Response first = api.pay(key, Api.payment(reference, 1000, "EUR", "pm_ok"));
        String reformatted = "{ \"payment_method\" : \"pm_ok\",\n  \"currency\": \"EUR\", \"amount\": 1000,"
                + " \"reference\": \"" + reference + "\" }";
        Api.Response replay = api.pay(key, reformatted);

        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    @Test
    void sameKeyWithOtherBusinessFieldsIsRefusedAndChangesNothing() {
        Api api = newMerchant();
        String key = Api.newKey();
        String reference = newReference();
        Api.Response first = api.pay(key, Api.payment(reference, 1000, "EUR", "pm_ok"));
        long payments = rows("payments");

        Api.Response reused = api.pay(key, Api.payment(reference, 2000, "EUR", "pm_ok"));

        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.text("code")).isEqualTo("idempotency_key_reused");
        assertThat(reused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(rows("payments")).isEqualTo(payments);
        assertThat(api.get("/v1/payments/" + first.text("id")).body()).isEqualTo(first.body());
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    @Test
    void declinedAttemptAllowsANewKeyForTheSameIntent() {
        Api api = newMerchant();
        String reference = newReference();
        Api.Response declined = api.pay(Api.newKey(), Api.payment(reference, 1000, "EUR", "pm_insufficient_funds"));
        assertThat(declined.status()).isEqualTo(201);
        assertThat(declined.text("status")).isEqualTo("declined");
        assertThat(declined.text("decline_code")).isEqualTo("insufficient_funds");

        Api.Response paid = api.pay(Api.newKey(), Api.payment(reference, 1000, "EUR", "pm_ok"));
        assertThat(paid.text("status")).isEqualTo("captured");

        Api.Response again = api.pay(Api.newKey(), Api.payment(reference, 1000, "EUR", "pm_ok"));
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.text("code")).isEqualTo("intent_has_live_attempt");
        assertThat(chargesAtPsp(reference)).isEqualTo(1);

        Api.Response attempts = api.get("/v1/payments?reference=" + reference);
        assertThat(attempts.json().get("data")).hasSize(2);
    }

    @Test
    void refusedRequestIsFailedAndFreesTheIntent() {
        Api api = newMerchant();
        String reference = newReference();
        Api.Response failed = api.pay(Api.newKey(), Api.payment(reference, 1000, "EUR", "pm_invalid"));
        assertThat(failed.status()).isEqualTo(201);
        assertThat(failed.text("status")).isEqualTo("failed");
        assertThat(api.pay(Api.newKey(), Api.payment(reference, 1000, "EUR", "pm_ok"))
                        .text("status"))
                .isEqualTo("captured");
    }

    @Test
    void unknownOutcomeAnswers202AndARetryGetsTheCurrentState() {
        Api api = newMerchant();
        String key = Api.newKey();
        String reference = newReference();
        Api.Response unknown = api.pay(key, Api.payment(reference, 1000, "EUR", "pm_5xx_no_charge"));

        assertThat(unknown.status()).isEqualTo(202);
        assertThat(unknown.text("status")).isEqualTo("processing");
        Api.Response retry = api.pay(key, Api.payment(reference, 1000, "EUR", "pm_5xx_no_charge"));
        assertThat(retry.status()).isEqualTo(202);
        assertThat(retry.text("id")).isEqualTo(unknown.text("id"));
        assertThat(chargesAtPsp(reference)).isZero();

        Api.Response otherKey = api.pay(Api.newKey(), Api.payment(reference, 1000, "EUR", "pm_ok"));
        assertThat(otherKey.text("code")).isEqualTo("intent_has_live_attempt");
    }

    @Test
    void pspFailureAfterChargingIsUnknownNeverFailed() {
        Api api = newMerchant();
        String reference = newReference();
        Api.Response answer = api.pay(Api.newKey(), Api.payment(reference, 1000, "EUR", "pm_5xx_after_charge"));

        assertThat(answer.status()).isEqualTo(202);
        assertThat(answer.text("status")).isEqualTo("processing");
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    @Test
    void lookupsAreScopedToTheMerchant() {
        Api api = newMerchant();
        Api other = newMerchant();
        String reference = newReference();
        Api.Response created = api.pay(Api.newKey(), Api.payment(reference, 1000, "EUR", "pm_ok"));

        assertThat(api.get("/v1/payments/" + created.text("id")).status()).isEqualTo(200);
        assertThat(other.get("/v1/payments/" + created.text("id")).status()).isEqualTo(404);
        assertThat(other.get("/v1/payments?reference=" + reference).json().get("data"))
                .isEmpty();
        assertThat(api.get("/v1/payments/pay_nonsense").status()).isEqualTo(404);
    }

    @Test
    void sameKeyUnderTwoMerchantsIsTwoOperations() {
        Api api = newMerchant();
        Api other = newMerchant();
        String key = Api.newKey();
        String reference = newReference();
        Api.Response mine = api.pay(key, Api.payment(reference, 1000, "EUR", "pm_ok"));
        Api.Response theirs = other.pay(key, Api.payment(reference, 1000, "EUR", "pm_ok"));

        assertThat(mine.status()).isEqualTo(201);
        assertThat(theirs.status()).isEqualTo(201);
        assertThat(theirs.header("Idempotent-Replayed")).isNull();
        assertThat(theirs.text("id")).isNotEqualTo(mine.text("id"));
        assertThat(chargesAtPsp(reference)).isEqualTo(2);
    }

    @Test
    void missingWrongAndRevokedKeysAreUnauthorized() {
        Api api = newMerchant();
        assertThat(api.as(null).get("/v1/payments?reference=x").status()).isEqualTo(401);
        Api.Response wrong = api.as("sk_test_wrong").pay(Api.newKey(), Api.payment("r", 1, "EUR", "pm_ok"));
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.text("code")).isEqualTo("invalid_api_key");

        var merchant = merchants.create("Revoker");
        var key = merchants.issueKey(merchant.id());
        Api revoked = api.as(key.secret());
        assertThat(revoked.get("/v1/payments?reference=x").status()).isEqualTo(200);
        Api.Response revoke = admin().delete("/v1/admin/merchants/" + merchant.id() + "/keys/"
                + dev.kopek.money.PrefixedId.format("key", key.id()));
        assertThat(revoke.status()).isEqualTo(200);
        assertThat(revoke.text("revoked_at")).isNotNull();
        assertThat(revoked.get("/v1/payments?reference=x").status()).isEqualTo(401);
    }

    @Test
    void openApiDocumentPublishesTheRetryContract() {
        Api.Response document = new Api(baseUri(), null).get("/openapi.yaml");
        assertThat(document.status()).isEqualTo(200);
        assertThat(document.body()).contains("openapi: 3.1.0", "409 never means declined", "/v1/payments/{id}/refunds");
    }

    @Test
    void adminApiCreatesMerchantsAndKeys() {
        Api.Response merchant = admin().post("/v1/admin/merchants", null, "{\"name\":\"Shop\"}");
        assertThat(merchant.status()).isEqualTo(201);
        Api.Response key = admin().post("/v1/admin/merchants/" + merchant.text("id") + "/keys", null, "");
        assertThat(key.status()).isEqualTo(201);
        Api shop = new Api(baseUri(), key.text("secret"));
        assertThat(shop.pay(Api.newKey(), Api.payment(newReference(), 10, "JPY", "pm_ok"))
                        .status())
                .isEqualTo(201);

        assertThat(newMerchant()
                        .post("/v1/admin/merchants", null, "{\"name\":\"x\"}")
                        .status())
                .isEqualTo(401);
        Api.Response listed = admin().get("/v1/admin/merchants/" + merchant.text("id") + "/keys");
        assertThat(listed.body()).doesNotContain(key.text("secret"));
    }
}
