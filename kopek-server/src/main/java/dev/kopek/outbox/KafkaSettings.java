package dev.kopek.outbox;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code kopek.kafka.*}. Without {@code bootstrapServers} ({@code KOPEK_KAFKA_BOOTSTRAP_SERVERS}) there is no
 * relay: events are still recorded and served by the feed and the webhooks.
 *
 * @param topic where every event goes, keyed by the resource's public id
 * @param topicPartitions used only when Kopek creates the topic
 * @param createTopic whether Kopek creates the topic at start when it is missing
 */
@ConfigurationProperties("kopek.kafka")
public record KafkaSettings(
        String bootstrapServers,
        @DefaultValue("kopek.events") String topic,
        @DefaultValue("6") int topicPartitions,
        @DefaultValue("true") boolean createTopic) {

    public KafkaSettings {
        if (topicPartitions < 1 || topicPartitions > 1000) {
            throw new IllegalArgumentException("kopek.kafka.topic-partitions must be 1..1000");
        }
    }

    public boolean configured() {
        return bootstrapServers != null && !bootstrapServers.isBlank();
    }

    /** The producer's own bound on one record (retries included); a batch waits a little longer than this. */
    public Duration deliveryTimeout() {
        return Duration.ofSeconds(20);
    }
}
