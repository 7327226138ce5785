package dev.kopek.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.IllegalTransactionStateException;
import tools.jackson.databind.JsonNode;

/** The trail: append-only in PostgreSQL, written with the action, naming the identity that authenticated. */
class AuditTrailTest extends IntegrationTest {

    @Autowired
    AuditTrail audit;

    @Test
    void theTableRefusesUpdateDeleteAndTruncate() {
        Api admin = admin();
        admin.post("/v1/admin/merchants", null, "{\"name\":\"Audited\"}");
        for (String sql : List.of(
                "UPDATE audit_events SET actor_name = 'someone else'",
                "DELETE FROM audit_events",
                "TRUNCATE audit_events")) {
            assertThatThrownBy(() -> jdbc.sql(sql).update()).as(sql).hasMessageContaining("append-only");
        }
    }

    @Test
    void recordingOutsideATransactionIsRefusedAndARolledBackActionLeavesNoEvent() {
        Actor system = Actor.system("test");
        assertThatThrownBy(() -> audit.record(system, "test.done", "test", "t1", null, Map.of()))
                .isInstanceOf(IllegalTransactionStateException.class);
        long before = rows("audit_events");
        assertThatThrownBy(() -> audit.inTransaction(status -> {
                    audit.record(system, "test.done", "test", "t2", null, Map.of("x", 1));
                    throw new IllegalStateException("the action failed after recording");
                }))
                .isInstanceOf(IllegalStateException.class);
        assertThat(rows("audit_events")).isEqualTo(before);
    }

    @Test
    void aNamedAdminIsTheActorOfWhatItDoesAndARevokedOneIsLockedOut() {
        Api.Response issued = admin().post("/v1/admin/identities", null, "{\"name\":\"alice\"}");
        assertThat(issued.status()).isEqualTo(201);
        String aliceId = issued.text("id");
        String token = issued.text("token");
        assertThat(token).startsWith("kad_");
        assertThat(jdbc.sql("SELECT count(*) FROM admin_identities WHERE token_hash = :t")
                        .param("t", token)
                        .query(Long.class)
                        .single())
                .as("stored hashed, never in clear")
                .isZero();
        Api alice = admin().as(token);

        Api.Response merchant = alice.send(alice.request("/v1/admin/merchants")
                .header("X-Request-Id", "req-audit-1")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"Made by alice\"}"))
                .build());
        assertThat(merchant.status()).isEqualTo(201);

        JsonNode event =
                page("/v1/ops/audit?target=" + merchant.text("id")).get("data").get(0);
        assertThat(event.get("action").asString()).isEqualTo("merchant.created");
        assertThat(event.get("actor").get("id").asString()).isEqualTo(aliceId);
        assertThat(event.get("actor").get("name").asString()).isEqualTo("alice");
        assertThat(event.get("request_id").asString()).isEqualTo("req-audit-1");
        assertThat(event.get("client_ip").asString()).isEqualTo("127.0.0.1");
        assertThat(event.get("after").get("name").asString()).isEqualTo("Made by alice");

        assertThat(admin().delete("/v1/admin/identities/" + aliceId).status()).isEqualTo(200);
        Api.Response refused = alice.get("/v1/ops/audit");
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.text("code")).isEqualTo("invalid_admin_token");
        JsonNode revoked = page("/v1/ops/audit?target=" + aliceId).get("data").get(0);
        assertThat(revoked.get("action").asString()).isEqualTo("admin_identity.revoked");
        assertThat(revoked.get("actor").get("id").asString()).isEqualTo("adm_bootstrap");
        assertThat(admin().delete("/v1/admin/identities/adm_bootstrap").status())
                .isEqualTo(409);
    }

    @Test
    void keysFeesReversalsReviewsEndpointsAndRunsAreAudited() {
        Api.Response merchant = admin().post("/v1/admin/merchants", null, "{\"name\":\"Covered\"}");
        String merchantId = merchant.text("id");
        Api.Response key = admin().post("/v1/admin/merchants/" + merchantId + "/keys", null, "{}");
        String keyId = key.text("id");
        admin().send(admin().request("/v1/admin/merchants/" + merchantId + "/fees")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"bps\":150,\"fixed_minor\":0,\"currency\":\"EUR\"}"))
                .build());
        assertThat(admin().delete("/v1/admin/merchants/" + merchantId + "/keys/" + keyId)
                        .status())
                .isEqualTo(200);
        assertThat(admin().send(admin().request("/v1/admin/merchants/" + merchantId + "/rate-limits")
                                .header("Content-Type", "application/json")
                                .PUT(HttpRequest.BodyPublishers.ofString("{\"writes\":{\"per_second\":7,\"burst\":9}}"))
                                .build())
                        .status())
                .isEqualTo(200);

        JsonNode limits = page("/v1/ops/audit?target=" + merchantId).get("data").get(0);
        assertThat(limits.get("action").asString()).isEqualTo("merchant.rate_limits_changed");
        assertThat(limits.get("after").get("writes").get("burst").asInt()).isEqualTo(9);
        assertThat(limits.get("before").get("writes").get("default").asBoolean())
                .isTrue();
        assertThat(actions(merchantId))
                .containsExactly("merchant.rate_limits_changed", "fee.changed", "merchant.created");
        assertThat(actions(keyId)).containsExactly("api_key.revoked", "api_key.issued");
        JsonNode issuedKey = page("/v1/ops/audit?target=" + keyId).get("data").get(1);
        assertThat(issuedKey.toString()).as("no key secret in the trail").doesNotContain(key.text("secret"));
        JsonNode fee = page("/v1/ops/audit?target=" + merchantId).get("data").get(1);
        assertThat(fee.get("before").isNull()).isTrue();
        assertThat(fee.get("after").get("bps").asInt()).isEqualTo(150);

        Api shop = newMerchant();
        Api.Response payment = shop.pay(Api.newKey(), Api.payment(newReference(), 10_000, "RUB", "pm_ok"));
        assertThat(payment.status()).as(payment.body()).isEqualTo(201);
        Api.Response journal = shop.get("/v1/ledger/transactions?payment_id=" + payment.text("id"));
        assertThat(journal.status()).as(journal.body()).isEqualTo(200);
        String transaction = journal.json().get("data").get(0).get("id").asString();
        assertThat(admin().post(
                                "/v1/admin/ledger/transactions/" + transaction + "/reversal",
                                null,
                                "{\"reason\":\"test\"}")
                        .status())
                .isEqualTo(201);
        assertThat(actions(transaction)).containsExactly("ledger_transaction.reversed");

        Api.Response endpoint = shop.post(
                "/v1/webhook-endpoints",
                Api.newKey(),
                "{\"url\":\"https://hooks.example.com/kopek\",\"event_types\":[\"*\"]}");
        assertThat(endpoint.status()).isEqualTo(201);
        JsonNode created =
                page("/v1/ops/audit?target=" + endpoint.text("id")).get("data").get(0);
        assertThat(created.get("action").asString()).isEqualTo("webhook_endpoint.created");
        assertThat(created.get("actor").get("kind").asString()).isEqualTo("merchant");
        assertThat(created.toString()).as("no signing secret in the trail").doesNotContain("whsec_");
        assertThat(shop.delete("/v1/webhook-endpoints/" + endpoint.text("id")).status())
                .isEqualTo(200);
        assertThat(actions(endpoint.text("id")))
                .containsExactly("webhook_endpoint.deleted", "webhook_endpoint.created");

        Api.Response run = admin().post("/v1/ops/settlements/runs", null, "{\"date\":\"2026-01-01\"}");
        assertThat(run.status()).isIn(200, 502);
        assertThat(actions("2026-01-01")).first().isEqualTo("settlement.run");
    }

    @Test
    void resolvedByInTheBodyIsRefusedBecauseTheResolverIsTheCaller() {
        Api.Response refused = admin().post(
                        "/v1/ops/manual-review/mrv_0190f3a1b2c3d4e5f60718293a4b5c6d/resolve",
                        null,
                        "{\"decision\":\"failed\",\"resolved_by\":\"someone else\"}");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.text("code")).isEqualTo("actor_from_credentials");
    }

    @Test
    void theTrailIsPagedNewestFirstByCursor() {
        Api.Response merchant = admin().post("/v1/admin/merchants", null, "{\"name\":\"Paged\"}");
        String id = merchant.text("id");
        for (int bps : new int[] {1, 2, 3}) {
            admin().send(admin().request("/v1/admin/merchants/" + id + "/fees")
                    .header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(
                            "{\"bps\":" + bps + ",\"fixed_minor\":0,\"currency\":" + "\"EUR\"}"))
                    .build());
        }
        JsonNode first = page("/v1/ops/audit?target=" + id + "&limit=3");
        assertThat(first.get("has_more").asBoolean()).isTrue();
        assertThat(first.get("data").get(0).get("after").get("bps").asInt()).isEqualTo(3);
        JsonNode second = page("/v1/ops/audit?target=" + id + "&limit=3&cursor="
                + first.get("next_cursor").asString());
        assertThat(second.get("has_more").asBoolean()).isFalse();
        assertThat(second.get("data")).hasSize(1);
        assertThat(second.get("data").get(0).get("action").asString()).isEqualTo("merchant.created");
        assertThat(admin().get("/v1/ops/audit?actor=adm_bootstrap&limit=1")
                        .json()
                        .get("data")
                        .get(0)
                        .get("actor")
                        .get("id")
                        .asString())
                .isEqualTo("adm_bootstrap");
        assertThat(admin().get("/v1/ops/audit?limit=0").status()).isEqualTo(400);
        assertThat(admin().get("/v1/ops/audit?cursor=abc").status()).isEqualTo(400);
        assertThat(newMerchant().get("/v1/ops/audit").status()).isEqualTo(401);
    }

    private JsonNode page(String path) {
        Api.Response response = admin().get(path);
        assertThat(response.status()).as(path).isEqualTo(200);
        return response.json();
    }

    private List<String> actions(String target) {
        List<String> actions = new java.util.ArrayList<>();
        page("/v1/ops/audit?target=" + target)
                .get("data")
                .forEach(e -> actions.add(e.get("action").asString()));
        return actions;
    }
}
