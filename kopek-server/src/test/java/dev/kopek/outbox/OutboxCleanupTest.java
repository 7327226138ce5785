package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PrefixedId;
import dev.kopek.money.TimeOrderedIds;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class OutboxCleanupTest extends OutboxIntegrationTest {

    @Autowired
    OutboxWorkers workers;

    @Autowired
    EventStatements events;

    @Test
    void onlyPublishedEventsPastRetentionWithoutPendingDeliveriesAreDeleted() {
        MerchantId quiet = merchants.create("Cleanup merchant").id();
        MerchantId hooked =
                merchants.create("Cleanup merchant with an endpoint").id();
        UUID endpoint = TimeOrderedIds.next(clock);
        jdbc.sql("""
                INSERT INTO webhook_endpoints (id, merchant_id, url, event_types, secret, status, created_at, updated_at)
                VALUES (:id, :merchant, 'http://127.0.0.1:9/never', ARRAY['*'], 'whsec_x', 'ENABLED', :now, :now)
                """)
                .param("id", endpoint)
                .param("merchant", hooked.value())
                .param("now", java.time.OffsetDateTime.now(clock))
                .update();
        Instant longAgo = clock.instant().minus(Duration.ofDays(40));
        String published = write(quiet, longAgo);
        String awaitingWebhook = write(hooked, longAgo);
        String recent = write(quiet, clock.instant());
        drainOutbox();
        String unpublished = write(quiet, longAgo);

        assertThat(workers.cleanupOnce()).isPositive();

        assertThat(eventsOf(published)).as("published and past retention").isEmpty();
        assertThat(eventsOf(awaitingWebhook))
                .as("a delivery still waits for it")
                .hasSize(1);
        assertThat(eventsOf(recent)).as("inside retention").hasSize(1);
        assertThat(eventsOf(unpublished))
                .as("never delete what Kafka has not acknowledged")
                .hasSize(1);
        jdbc.sql("UPDATE webhook_deliveries SET status = 'CANCELLED' WHERE endpoint_id = :id")
                .param("id", endpoint)
                .update(); // nobody listens there; the other tests' workers need not try
    }

    private String write(MerchantId merchant, Instant at) {
        UUID resource = TimeOrderedIds.next(clock);
        String publicId = PrefixedId.format("tst", resource);
        tx.executeWithoutResult(
                s -> events.write(new BusinessEvent("test.step", "test", resource, publicId, merchant, 0, "{}", at)));
        return publicId;
    }
}
