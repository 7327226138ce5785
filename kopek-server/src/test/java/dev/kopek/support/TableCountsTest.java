package dev.kopek.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PrefixedId;
import dev.kopek.outbox.webhooks.DeliveryWorker;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * What the hostile-input tests compare before and after a refused request: a background worker's writes are not
 * the request's. HostileInputTest could fail by chance when the webhook worker disabled an earlier test's endpoint
 * (its deliveries failed for the whole window once the shared clock moved on) during the sweep.
 */
class TableCountsTest extends IntegrationTest {

    private static final Duration PAST_THE_RETRY_WINDOW = Duration.ofHours(73);

    @Autowired
    DeliveryWorker deliveries;

    @Test
    void anEndpointTheWorkerDisablesChangesNoCount() {
        try (WebhookReceiver broken = new WebhookReceiver().answerAlways(503)) {
            Api api = newMerchant();
            Api.Response endpoint = api.post(
                    "/v1/webhook-endpoints",
                    Api.newKey(),
                    "{\"url\":\"" + broken.url() + "\",\"event_types\":[\"payment.captured\"]}");
            assertThat(endpoint.status()).as(endpoint.body()).isEqualTo(201);
            UUID id = PrefixedId.parse("we", endpoint.text("id")).orElseThrow();
            api.pay(Api.newKey(), Api.payment(newReference(), 1800, "EUR", "pm_ok"));
            Map<String, Long> before = TableCounts.of(jdbc);

            clock.advance(PAST_THE_RETRY_WINDOW);
            // This pass or the background worker's (each second) makes the first attempt, which is past the window.
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (disabledEvents(id) == 0 && System.nanoTime() < deadline) {
                deliveries.deliverDue();
            }

            assertThat(disabledEvents(id))
                    .as("the worker disabled the endpoint: an event")
                    .isEqualTo(1);
            assertThat(TableCounts.of(jdbc)).isEqualTo(before);
        }
    }

    private long disabledEvents(UUID endpoint) {
        return jdbc.sql("""
                SELECT count(*) FROM outbox WHERE resource_id = :id AND event_type = 'webhook_endpoint.disabled'
                """).param("id", endpoint).query(Long.class).single();
    }
}
