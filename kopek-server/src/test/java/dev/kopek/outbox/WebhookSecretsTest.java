package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.client.WebhookSignature;
import dev.kopek.outbox.webhooks.Endpoint;
import dev.kopek.platform.SecretBox;
import dev.kopek.platform.SecretResealing;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.WebhookReceiver;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Webhook signing secrets are sealed at rest (issue 9, section 5): not in the endpoint row, not in the stored
 * answer of the creating request, not in any other column; rows from before sealing and rows of a retired key are
 * sealed again under the current key, and deliveries are still signed with the right secret.
 */
class WebhookSecretsTest extends OutboxIntegrationTest {

    @Autowired
    SecretResealing sealing;

    @Autowired
    SecretBox box;

    @Test
    void theSecretIsInNoColumnOfAnyTableAndAReplaySaysItWasShownOnce() {
        Api api = newMerchant();
        String key = Api.newKey();
        String body = "{\"url\":\"https://hooks.example.test/k\",\"event_types\":[\"*\"]}";
        Api.Response created = api.post("/v1/webhook-endpoints", key, body);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String secret = created.text("secret");
        assertThat(secret).startsWith("whsec_");

        assertThat(columnsContaining(secret))
                .as("columns holding the clear secret")
                .isEmpty();
        assertThat(columnsContaining(secret.substring(6, 26)))
                .as("not even a part of it")
                .isEmpty();

        Api.Response replay = api.post("/v1/webhook-endpoints", key, body);
        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.json().get("secret").isNull()).isTrue();
        assertThat(replay.json().get("secret_shown_once").asBoolean()).isTrue();
        assertThat(replay.text("id")).isEqualTo(created.text("id"));
        assertThat(api.post("/v1/webhook-endpoints", key, body).body())
                .as("every replay the same bytes")
                .isEqualTo(replay.body());

        UUID id = endpointId(created.text("id"));
        String keyId = jdbc.sql("SELECT secret_key_id FROM webhook_endpoints WHERE id = :id")
                .param("id", id)
                .query(String.class)
                .single();
        assertThat(keyId)
                .isEqualTo(box.currentKeyId())
                .isEqualTo(SecretBox.keyId(Base64.getDecoder().decode(IntegrationTest.SECRETS_KEY)));
    }

    @Test
    void aSecretStoredInClearBeforeSealingIsSealedAndStillSignsDeliveries() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Api api = newMerchant();
            String id = createEndpoint(api, receiver.url());
            UUID uuid = endpointId(id);
            String legacy = "whsec_legacy_" + UUID.randomUUID();
            jdbc.sql("""
                    UPDATE webhook_endpoints SET secret = :secret, secret_key_id = NULL, secret_sealed = NULL
                     WHERE id = :id
                    """).param("secret", legacy).param("id", uuid).update();
            assertThat(columnsContaining(legacy)).containsExactly("webhook_endpoints.secret");

            assertThat(sealing.resealAll()).isGreaterThanOrEqualTo(1);

            assertThat(columnsContaining(legacy)).isEmpty();
            assertThat(sealedBy(uuid)).isEqualTo(box.currentKeyId());
            assertDeliveriesSignedWith(api, receiver, legacy);
        }
    }

    @Test
    void aSecretSealedByARetiredKeyOpensAndIsResealedUnderTheCurrentKey() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Api api = newMerchant();
            UUID uuid = endpointId(createEndpoint(api, receiver.url()));
            byte[] oldKey = Base64.getDecoder().decode(OLD_SECRETS_KEY);
            String secret = "whsec_rotated_" + UUID.randomUUID();
            SecretBox.Sealed old = new SecretBox(oldKey, List.of()).seal(secret, uuid.toString());
            jdbc.sql("UPDATE webhook_endpoints SET secret_key_id = :keyId, secret_sealed = :sealed WHERE id = :id")
                    .param("keyId", old.keyId())
                    .param("sealed", old.bytes())
                    .param("id", uuid)
                    .update();

            assertDeliveriesSignedWith(api, receiver, secret);
            sealing.resealAll();

            assertThat(sealedBy(uuid)).isEqualTo(box.currentKeyId()).isNotEqualTo(SecretBox.keyId(oldKey));
            assertDeliveriesSignedWith(api, receiver, secret);
        }
    }

    /** A new payment's event reaches the receiver signed with {@code secret}. */
    private void assertDeliveriesSignedWith(Api api, WebhookReceiver receiver, String secret) {
        int before = receiver.received().size();
        api.pay(Api.newKey(), Api.payment(newReference(), 1700, "EUR", "pm_declined"));
        for (int pass = 0; pass < 100 && deliveries.deliverDue() > 0; pass++) {
            // until nothing is due
        }
        List<WebhookReceiver.Received> got = receiver.received();
        assertThat(got.subList(before, got.size()))
                .hasSize(1)
                .allSatisfy(r -> assertThat(WebhookSignature.verify(secret, r.signature(), r.body(), clock.instant()))
                        .isEqualTo(WebhookSignature.Verdict.VALID));
    }

    private String createEndpoint(Api api, String url) {
        Api.Response created = api.post(
                "/v1/webhook-endpoints",
                Api.newKey(),
                "{\"url\":\"" + url + "\",\"event_types\":[\"payment.created\"]}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.text("id");
    }

    private static UUID endpointId(String publicId) {
        return Endpoint.parseId(publicId).orElseThrow();
    }

    private String sealedBy(UUID id) {
        return jdbc.sql("SELECT secret_key_id FROM webhook_endpoints WHERE id = :id AND secret IS NULL")
                .param("id", id)
                .query(String.class)
                .single();
    }

    /** Every text-like column of every table in the schema whose value contains {@code needle}. */
    private List<String> columnsContaining(String needle) {
        List<String[]> columns = jdbc.sql("""
                SELECT table_name, column_name FROM information_schema.columns
                 WHERE table_schema = 'public'
                   AND data_type IN ('text', 'character varying', 'character', 'jsonb', 'json', 'bytea', 'ARRAY')
                """)
                .query((rs, n) -> new String[] {rs.getString(1), rs.getString(2)})
                .list();
        return columns.stream()
                .filter(c -> jdbc.sql("SELECT EXISTS (SELECT 1 FROM \"" + c[0] + "\" WHERE \"" + c[1]
                                + "\"::text LIKE '%' || :needle || '%')")
                        .param("needle", needle)
                        .query(Boolean.class)
                        .single())
                .map(c -> c[0] + "." + c[1])
                .toList();
    }
}
