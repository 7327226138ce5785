package dev.kopek.outbox.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.outbox.KafkaSettings;
import dev.kopek.outbox.SharedKafka;
import dev.kopek.outbox.store.OutboxRow;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * The relays send no event to a topic Kopek has not prepared, on the embedded broker (one broker, Kafka's default
 * {@code auto.create.topics.enable}): an event sent first would have the broker create the topic with its own
 * defaults, whatever replication the operator configured.
 */
class EventsTopicTest {

    private final KafkaProperties spring = new KafkaProperties();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private DefaultKafkaProducerFactory<String, String> producers;

    @AfterEach
    void close() {
        if (producers != null) {
            producers.destroy();
        }
    }

    @Test
    void anEventDoesNotCreateATopicKopekCouldNotCreateAsConfigured() throws Exception {
        // Two replicas on one broker: the creation fails, as it does while the cluster is short of brokers.
        KafkaSettings kafka = settings(true, 2);
        KafkaPublisher publisher = publisher(kafka);

        assertThatThrownBy(() -> publisher.publish(List.of(row()), "polling"))
                .isInstanceOf(KafkaPublisher.PublishFailed.class)
                .hasMessageContaining("is not created and read back yet");

        try (Admin admin = Admin.create(KafkaClientSettings.admin(spring, kafka))) {
            assertThatThrownBy(() -> admin.describeTopics(List.of(kafka.topic()))
                            .allTopicNames()
                            .get(30, TimeUnit.SECONDS))
                    .as("the broker created no topic with its defaults")
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
        }
        assertThat(meters.find("kopek.kafka.topic.replication.factor").gauge()).isNull();
    }

    @Test
    void eventsWaitForATopicKopekMayNotCreateAndGoOnceItExists() throws Exception {
        KafkaSettings kafka = settings(false, null);
        KafkaPublisher publisher = publisher(kafka);

        assertThatThrownBy(() -> publisher.publish(List.of(row()), "polling"))
                .isInstanceOf(KafkaPublisher.PublishFailed.class);

        try (Admin admin = Admin.create(KafkaClientSettings.admin(spring, kafka))) {
            admin.createTopics(List.of(new NewTopic(kafka.topic(), 1, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        publisher.publish(List.of(row()), "polling");

        assertThat(meters.get("kopek.outbox.published").counter().count()).isEqualTo(1);
        assertThat(meters.get("kopek.kafka.topic.replication.factor").gauge().value())
                .isEqualTo(1);
    }

    private KafkaPublisher publisher(KafkaSettings kafka) {
        producers = new DefaultKafkaProducerFactory<>(KafkaClientSettings.producer(spring, kafka));
        EventsTopic topic = new EventsTopic(KafkaClientSettings.admin(spring, kafka), kafka, meters);
        return new KafkaPublisher(
                new KafkaTemplate<>(producers), topic, Duration.ofSeconds(30), meters, Clock.systemUTC());
    }

    private static KafkaSettings settings(boolean create, Integer replicationFactor) {
        return new KafkaSettings(
                SharedKafka.bootstrapServers(),
                "kopek.unprepared-" + UUID.randomUUID(),
                1,
                create,
                replicationFactor,
                null);
    }

    private static OutboxRow row() {
        UUID id = UUID.randomUUID();
        return new OutboxRow(id, "payment.created", id, "pay_" + id, 1, "{}", Instant.parse("2026-12-06T12:00:00Z"));
    }
}
