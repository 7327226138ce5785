package dev.kopek.outbox.relay;

import dev.kopek.outbox.KafkaSettings;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kopek's topic at start: created when missing (if {@code kopek.kafka.create-topic}) with the partitions, replication
 * factor and {@code min.insync.replicas} the operator configured, then read back from the cluster, whoever created
 * it, so that {@link TopicDurability} can say whether it keeps every acknowledged event through a broker's loss.
 * Every call is bounded by the admin timeout, and nothing here stops Kopek: Kafka being down at start only means
 * the outbox fills until it is back.
 */
final class EventsTopicSetup {

    private static final Logger log = LoggerFactory.getLogger(EventsTopicSetup.class);

    private static final Duration UNKNOWN_TOPIC_PAUSE = Duration.ofMillis(100);

    private EventsTopicSetup() {}

    /** The topic's durability as the cluster reports it, or empty when Kafka could not tell within the timeout. */
    static Optional<TopicDurability> prepare(Admin admin, KafkaSettings kafka) {
        if (kafka.createTopic() && !create(admin, kafka)) {
            return Optional.empty();
        }
        try {
            TopicDurability durability =
                    kafka.createTopic() ? readCreated(admin, kafka.topic()) : read(admin, kafka.topic());
            durability.warning(kafka.topic()).ifPresent(log::warn);
            return Optional.of(durability);
        } catch (ExecutionException e) {
            log.warn(
                    "could not read Kafka topic {}'s replication: {}",
                    kafka.topic(),
                    e.getCause().toString());
        } catch (TimeoutException e) {
            log.warn(
                    "Kafka did not answer within {} while reading topic {}'s replication",
                    KafkaClientSettings.adminTimeout(),
                    kafka.topic());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Optional.empty();
    }

    /**
     * {@link #read} of a topic that exists: just created, it may still be unknown to the broker that answers, for the
     * moment the controller's record of it takes to reach that broker (KRaft), so an unknown topic is asked again
     * until the admin timeout. Read at once, it made a start log a false "could not read" and left the topic
     * unprepared until the relay's next pass.
     */
    private static TopicDurability readCreated(Admin admin, String topic)
            throws ExecutionException, TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + KafkaClientSettings.adminTimeout().toNanos();
        while (true) {
            try {
                return read(admin, topic);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(UNKNOWN_TOPIC_PAUSE.toMillis());
            }
        }
    }

    /** The cluster's broker count, the topic's smallest replica count and its effective min.insync.replicas. */
    static TopicDurability read(Admin admin, String topic)
            throws ExecutionException, TimeoutException, InterruptedException {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        KafkaFuture<Collection<Node>> nodes = admin.describeCluster().nodes();
        KafkaFuture<TopicDescription> description =
                admin.describeTopics(List.of(topic)).topicNameValues().get(topic);
        KafkaFuture<Map<ConfigResource, Config>> configs =
                admin.describeConfigs(List.of(resource)).all();
        KafkaFuture.allOf(nodes, description, configs)
                .get(KafkaClientSettings.adminTimeout().toMillis(), TimeUnit.MILLISECONDS);
        int replicationFactor = description.get().partitions().stream()
                .mapToInt(p -> p.replicas().size())
                .min()
                .orElse(0);
        ConfigEntry minInsync = configs.get().get(resource).get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
        return new TopicDurability(nodes.get().size(), replicationFactor, Integer.parseInt(minInsync.value()));
    }

    /** True when the topic exists now (created here or before); false when Kafka refused or did not answer. */
    private static boolean create(Admin admin, KafkaSettings kafka) {
        NewTopic topic = new NewTopic(
                kafka.topic(),
                Optional.of(kafka.topicPartitions()),
                Optional.ofNullable(kafka.topicReplicationFactor()).map(Integer::shortValue));
        if (kafka.topicMinInsyncReplicas() != null) {
            topic.configs(Map.of(
                    TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG,
                    kafka.topicMinInsyncReplicas().toString()));
        }
        try {
            admin.createTopics(List.of(topic))
                    .all()
                    .get(KafkaClientSettings.adminTimeout().toMillis(), TimeUnit.MILLISECONDS);
            log.info(
                    "created Kafka topic {} with {} partitions, replication factor {}, min.insync.replicas {}",
                    kafka.topic(),
                    kafka.topicPartitions(),
                    orBrokerDefault(kafka.topicReplicationFactor()),
                    orBrokerDefault(kafka.topicMinInsyncReplicas()));
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                return true;
            }
            log.warn(
                    "could not create Kafka topic {}; the relay publishes once it exists", kafka.topic(), e.getCause());
        } catch (TimeoutException e) {
            log.warn(
                    "Kafka did not answer within {} while creating topic {}",
                    KafkaClientSettings.adminTimeout(),
                    kafka.topic());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private static String orBrokerDefault(Integer value) {
        return value == null ? "the broker's default" : value.toString();
    }
}
