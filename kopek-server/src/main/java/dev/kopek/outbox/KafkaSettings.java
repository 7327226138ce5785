package dev.kopek.outbox;

import java.time.Duration;
import java.util.Optional;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code kopek.kafka.*}. Without {@code bootstrapServers} ({@code KOPEK_KAFKA_BOOTSTRAP_SERVERS}) there is no
 * relay: events are still recorded and served by the feed and the webhooks.
 *
 * <p>The topic's durability is the last link of "every state change has its event": the producer's
 * {@code acks=all} waits only for the replicas in sync, so an event is on as many brokers as the topic's replication
 * factor and {@code min.insync.replicas} make it. A combination that cannot serve that promise is refused here, at
 * start, rather than discovered when a broker dies.
 *
 * @param topic where every event goes, keyed by the resource's public id
 * @param topicPartitions used only when Kopek creates the topic
 * @param createTopic whether Kopek creates the topic at start when it is missing
 * @param topicReplicationFactor {@code KOPEK_KAFKA_TOPIC_REPLICATION_FACTOR}: used only when Kopek creates the
 *     topic; null sends none, so the broker's {@code default.replication.factor} applies
 * @param topicMinInsyncReplicas {@code KOPEK_KAFKA_TOPIC_MIN_INSYNC_REPLICAS}: set on the topic only when Kopek
 *     creates it; null sends none, so the broker's {@code min.insync.replicas} applies
 */
@ConfigurationProperties("kopek.kafka")
public record KafkaSettings(
        String bootstrapServers,
        @DefaultValue("kopek.events") String topic,
        @DefaultValue("6") int topicPartitions,
        @DefaultValue("true") boolean createTopic,
        Integer topicReplicationFactor,
        Integer topicMinInsyncReplicas) {

    public KafkaSettings {
        if (topicPartitions < 1 || topicPartitions > 1000) {
            throw new IllegalArgumentException("kopek.kafka.topic-partitions must be 1..1000");
        }
        durabilityProblem(topicReplicationFactor, topicMinInsyncReplicas).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
    }

    public boolean configured() {
        return bootstrapServers != null && !bootstrapServers.isBlank();
    }

    /** The producer's own bound on one record (retries included); a batch waits a little longer than this. */
    public Duration deliveryTimeout() {
        return Duration.ofSeconds(20);
    }

    /**
     * Why these two settings cannot go together, or empty. Kafka's own limit on the replication factor is the
     * number of brokers, which only the cluster knows; a short is what its protocol carries.
     */
    static Optional<String> durabilityProblem(Integer replicationFactor, Integer minInsyncReplicas) {
        if (replicationFactor != null && (replicationFactor < 1 || replicationFactor > Short.MAX_VALUE)) {
            return Optional.of("KOPEK_KAFKA_TOPIC_REPLICATION_FACTOR must be 1.." + Short.MAX_VALUE + " (it was "
                    + replicationFactor + "); leave it unset for the broker's default.replication.factor");
        }
        if (minInsyncReplicas != null && (minInsyncReplicas < 1 || minInsyncReplicas > Short.MAX_VALUE)) {
            return Optional.of("KOPEK_KAFKA_TOPIC_MIN_INSYNC_REPLICAS must be 1.." + Short.MAX_VALUE + " (it was "
                    + minInsyncReplicas + "); leave it unset for the broker's min.insync.replicas");
        }
        if (replicationFactor == null || minInsyncReplicas == null) {
            return Optional.empty();
        }
        if (minInsyncReplicas > replicationFactor) {
            return Optional.of("KOPEK_KAFKA_TOPIC_MIN_INSYNC_REPLICAS (" + minInsyncReplicas
                    + ") exceeds KOPEK_KAFKA_TOPIC_REPLICATION_FACTOR (" + replicationFactor
                    + "): Kafka would refuse every event (not enough replicas) and the outbox would only grow; "
                    + "set it below the replication factor, e.g. 2 with a replication factor of 3");
        }
        if (minInsyncReplicas.equals(replicationFactor) && replicationFactor > 1) {
            return Optional.of("KOPEK_KAFKA_TOPIC_MIN_INSYNC_REPLICAS equals KOPEK_KAFKA_TOPIC_REPLICATION_FACTOR ("
                    + replicationFactor + "): the loss of any one broker would stop every write to the topic "
                    + "until it returns, and the outbox would grow meanwhile; set it below the replication factor, "
                    + "e.g. 2 with a replication factor of 3 (one broker may fail, every event is on two)");
        }
        return Optional.empty();
    }
}
