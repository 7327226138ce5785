package dev.kopek.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.simulator.WebhookSignature;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** PSP notifications: verified first, stored once, applied through the state machine whatever their order. */
class PspWebhookTest extends IntegrationTest {

    static final String SECRET = "whsec_simulator";

    @Autowired
    NotificationInbox inbox;

    private Api.Response deliver(String body, long signedAtEpochSecond, String secret) {
        Api anonymous = new Api(baseUri(), null);
        HttpRequest.Builder request = anonymous
                .request("/v1/psp/simulator/webhooks")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (secret != null) {
            request.header(WebhookSignature.HEADER, WebhookSignature.header(secret, signedAtEpochSecond, body));
        }
        return anonymous.send(request.build());
    }

    private Api.Response deliver(String body) {
        return deliver(body, clock.instant().getEpochSecond(), SECRET);
    }

    private String chargeEvent(String eventId, String type, String chargeId, String providerKey, long amount) {
        String status = type.substring("charge.".length());
        return "{\"id\":\"" + eventId + "\",\"type\":\"" + type + "\",\"created\":"
                + clock.instant().getEpochSecond()
                + ",\"data\":{\"id\":\"" + chargeId + "\",\"object\":\"charge\",\"status\":\"" + status
                + "\",\"amount\":" + amount + ",\"currency\":\"EUR\",\"idempotency_key\":\"" + providerKey + "\""
                + (status.equals("declined") ? ",\"decline_code\":\"card_declined\"" : "") + "}}";
    }

    @Test
    void badMissingAndReplayedSignaturesAreRefusedAndNothingIsStored() {
        String body = chargeEvent("evt_" + UUID.randomUUID(), "charge.succeeded", "ch_x", "kpk_x", 100);
        long before = rows("psp_notifications");

        assertThat(deliver(body, clock.instant().getEpochSecond(), null).status())
                .isEqualTo(401);
        assertThat(deliver(body, clock.instant().getEpochSecond(), "whsec_wrong")
                        .status())
                .isEqualTo(401);
        Api.Response old =
                deliver(body, clock.instant().minus(Duration.ofMinutes(6)).getEpochSecond(), SECRET);
        assertThat(old.status()).isEqualTo(401);
        assertThat(old.text("code")).isEqualTo("invalid_signature");
        String tampered = body.replace("\"amount\":100", "\"amount\":999");
        Api anonymous = new Api(baseUri(), null);
        Api.Response forged = anonymous.send(anonymous
                .request("/v1/psp/simulator/webhooks")
                .header(
                        WebhookSignature.HEADER,
                        WebhookSignature.header(SECRET, clock.instant().getEpochSecond(), body))
                .POST(HttpRequest.BodyPublishers.ofString(tampered))
                .build());
        assertThat(forged.status()).isEqualTo(401);
        assertThat(rows("psp_notifications")).isEqualTo(before);
    }

    @Test
    void duplicatedReorderedAndLateNotificationsSettleEachPaymentOnce() {
        Api api = newMerchant();
        Random random = new Random(42);
        List<String> deliveries = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        List<String> providerKeys = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            boolean approve = i % 3 != 0;
            Api.Response processing = api.pay(
                    Api.newKey(),
                    Api.payment(
                            newReference(),
                            1_000 + i,
                            "EUR",
                            approve ? "pm_webhook_only" : "pm_webhook_only_declined"));
            assertThat(processing.status()).isEqualTo(202);
            String id = processing.text("id");
            String providerKey = jdbc.sql("SELECT provider_key FROM payments WHERE id = :id")
                    .param(
                            "id",
                            dev.kopek.money.PaymentId.parse(id).orElseThrow().value())
                    .query(String.class)
                    .single();
            String decided = chargeEvent(
                    "evt_" + UUID.randomUUID(),
                    approve ? "charge.succeeded" : "charge.declined",
                    "ch_" + i + UUID.randomUUID(),
                    providerKey,
                    1_000 + i);
            deliveries.add(decided);
            deliveries.add(decided);
            providerKeys.add(providerKey);
            ids.add(id);
            expected.add(approve ? "captured" : "declined");
        }
        Collections.shuffle(deliveries, random);

        for (String body : deliveries) {
            assertThat(deliver(body).status()).isEqualTo(200);
        }
        clock.advance(Duration.ofMinutes(1));
        reconciler.reconcileOnce();

        for (int i = 0; i < ids.size(); i++) {
            assertThat(api.get("/v1/payments/" + ids.get(i)).text("status")).isEqualTo(expected.get(i));
            String finalType = "payment." + expected.get(i);
            assertThat(recorder.typesFor(ids.get(i))).containsExactly("payment.created", "payment.unknown", finalType);
        }
        // This test's own notifications: the table is shared with every earlier test class (an amount in the
        // payload matched other tests' notifications, and failed this one when they ran first).
        long stored = jdbc.sql("SELECT count(*) FROM psp_notifications WHERE provider_key = ANY(:keys)")
                .param("keys", providerKeys.toArray(String[]::new))
                .query(Long.class)
                .single();
        assertThat(stored).as("each duplicated notification stored once").isEqualTo(ids.size());
    }

    @Test
    void notificationThatWouldMovePaymentBackwardsIsRecordedAndIgnored() {
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 500, "EUR", "pm_ok"));
        String providerKey = jdbc.sql("SELECT provider_key FROM payments WHERE psp_reference = :r")
                .param("r", paid.text("psp_reference"))
                .query(String.class)
                .single();

        assertThat(deliver(chargeEvent(
                                        "evt_" + UUID.randomUUID(),
                                        "charge.authorized",
                                        paid.text("psp_reference"),
                                        providerKey,
                                        500)
                                .replace(
                                        "\"status\":\"authorized\"",
                                        "\"status\":\"authorized\",\"expires_at\":\"2030-01-01T00:00:00Z\""))
                        .status())
                .isEqualTo(200);
        assertThat(deliver(chargeEvent(
                                "evt_" + UUID.randomUUID(),
                                "charge.declined",
                                paid.text("psp_reference"),
                                providerKey,
                                500))
                        .status())
                .isEqualTo(200);

        assertThat(api.get("/v1/payments/" + paid.text("id")).body()).isEqualTo(paid.body());
        assertThat(jdbc.sql("SELECT outcome FROM psp_notifications WHERE provider_key = :k ORDER BY received_at")
                        .param("k", providerKey)
                        .query(String.class)
                        .list())
                .containsExactly("ignored", "conflict");
        assertThat(recorder.typesFor(paid.text("id"))).containsExactly("payment.created", "payment.captured");
    }

    @Test
    void simulatorWebhooksResolveAsynchronousPayments() throws Exception {
        SIMULATOR.configure(SIMULATOR
                .config()
                .withWebhooks(SIMULATOR
                        .config()
                        .webhooks()
                        .withUrl(baseUri().resolve("/v1/psp/simulator/webhooks"))
                        .withDuplicateRate(1.0)
                        .withDelayMillis(50)));
        Api api = newMerchant();
        String reference = newReference();
        Api.Response processing = api.pay(Api.newKey(), Api.payment(reference, 2_000, "EUR", "pm_webhook_only"));
        assertThat(processing.status()).isEqualTo(202);

        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!api.get("/v1/payments/" + processing.text("id")).text("status").equals("captured")
                && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }

        assertThat(api.get("/v1/payments/" + processing.text("id")).text("status"))
                .isEqualTo("captured");
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
        assertThat(recorder.typesFor(processing.text("id")))
                .containsExactly("payment.created", "payment.unknown", "payment.captured");
    }
}
