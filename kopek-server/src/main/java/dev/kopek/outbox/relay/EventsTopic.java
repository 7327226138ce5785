package dev.kopek.outbox.relay;

import dev.kopek.outbox.KafkaSettings;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;

/**
 * The events topic as the relays may use it: created (when Kopek creates it) and read back before the first event
 * is sent to it. Kafka being down when Kopek starts must not change what the topic becomes. If the first event
 * went out once Kafka was back, a broker with {@code auto.create.topics.enable} (Kafka's default) would create the
 * topic itself with its own defaults, one replica where the operator asked for three, and every event would be
 * kept on one broker with no warning; a broker without it would refuse the events until someone created the topic
 * by hand. So until the topic is prepared, each publish tries again first and fails as a Kafka outage does: the
 * events wait in the outbox.
 */
final class EventsTopic {

    private final Map<String, Object> adminConfig;
    private final KafkaSettings kafka;
    private final MeterRegistry meters;
    private volatile boolean prepared;

    EventsTopic(Map<String, Object> adminConfig, KafkaSettings kafka, MeterRegistry meters) {
        this.adminConfig = adminConfig;
        this.kafka = kafka;
        this.meters = meters;
    }

    String name() {
        return kafka.topic();
    }

    /** True once the topic exists and its replication has been read; tries again (bounded) until then. */
    boolean prepared() {
        if (!prepared) {
            prepare();
        }
        return prepared;
    }

    private synchronized void prepare() {
        if (prepared) {
            return;
        }
        Optional<TopicDurability> durability;
        try (Admin admin = Admin.create(adminConfig)) {
            durability = EventsTopicSetup.prepare(admin, kafka);
        }
        durability.ifPresent(d -> {
            register(d);
            prepared = true;
        });
    }

    /** The topic's replication as read, for an alert to see (a topic created by hand may keep events on one broker). */
    private void register(TopicDurability durability) {
        Gauge.builder("kopek.kafka.topic.replication.factor", durability::replicationFactor)
                .description(
                        "the smallest replica count among the events topic's partitions, read when Kopek prepared the topic")
                .register(meters);
        Gauge.builder("kopek.kafka.topic.min.insync.replicas", durability::minInsyncReplicas)
                .description("the events topic's effective min.insync.replicas, read when Kopek prepared the topic")
                .register(meters);
        Gauge.builder("kopek.kafka.brokers", durability::brokers)
                .description("the brokers the Kafka cluster reported when Kopek prepared the topic")
                .register(meters);
    }
}
