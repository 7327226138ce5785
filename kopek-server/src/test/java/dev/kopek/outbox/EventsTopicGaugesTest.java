package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The events topic's replication, as Kopek read it at start from the embedded broker (one broker, a topic of one
 * replica and the broker's min.insync.replicas of 1), is scraped for an alert to see.
 */
class EventsTopicGaugesTest extends OutboxIntegrationTest {

    @Test
    void theTopicsReplicationIsScraped() {
        assertThat(scraped("kopek_kafka_topic_replication_factor")).isEqualTo(1.0);
        assertThat(scraped("kopek_kafka_topic_min_insync_replicas")).isEqualTo(1.0);
        assertThat(scraped("kopek_kafka_brokers")).isEqualTo(1.0);
    }
}
