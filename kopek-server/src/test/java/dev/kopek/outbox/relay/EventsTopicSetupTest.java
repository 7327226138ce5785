package dev.kopek.outbox.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.KopekApplication;
import dev.kopek.outbox.KafkaSettings;
import dev.kopek.outbox.SharedKafka;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.SharedSimulator;
import dev.kopek.support.TestDatabase;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;

/**
 * Kopek's topic on the embedded KRaft broker (one broker): created with the durability configured, read back with
 * the Admin client as an operator would; an existing topic's durability read whoever created it; and a combination
 * that cannot keep events refused when Kopek starts.
 */
class EventsTopicSetupTest {

    private static Admin admin;

    @BeforeAll
    static void connect() {
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()));
    }

    @AfterAll
    static void disconnect() {
        admin.close();
    }

    @Test
    void aTopicKopekCreatesHasTheConfiguredReplicationAndMinInsyncReplicas() throws Exception {
        String topic = newTopicName();

        Optional<TopicDurability> read = EventsTopicSetup.prepare(admin, settings(topic, true, 1, 1));

        assertThat(read).contains(new TopicDurability(1, 1, 1));
        TopicDescription description = describe(topic);
        assertThat(description.partitions())
                .hasSize(4)
                .allSatisfy(p -> assertThat(p.replicas()).hasSize(1));
        ConfigEntry minInsync = minInsyncReplicas(topic);
        assertThat(minInsync.value()).isEqualTo("1");
        assertThat(minInsync.source())
                .as("set on the topic by Kopek, not the broker's default of the same value")
                .isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
    }

    @Test
    void withoutTheSettingsTheBrokersDefaultsApply() throws Exception {
        String topic = newTopicName();

        assertThat(EventsTopicSetup.prepare(admin, settings(topic, true, null, null)))
                .contains(new TopicDurability(1, 1, 1));

        assertThat(minInsyncReplicas(topic).source()).isNotEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
    }

    @Test
    void anExistingTopicIsReadAsItIsAndNotChanged() throws Exception {
        String topic = newTopicName();
        admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1)
                        .configs(Map.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "2"))))
                .all()
                .get(30, TimeUnit.SECONDS);

        Optional<TopicDurability> read = EventsTopicSetup.prepare(admin, settings(topic, true, 1, 1));

        assertThat(read).contains(new TopicDurability(1, 1, 2));
        assertThat(read.orElseThrow().warning(topic))
                .hasValueSatisfying(w -> assertThat(w).contains("Kafka refuses every event"));
        assertThat(describe(topic).partitions()).hasSize(2);
        assertThat(minInsyncReplicas(topic).value()).isEqualTo("2");
    }

    @Test
    void aMissingTopicKopekMayNotCreateIsReportedAsUnknown() {
        assertThat(EventsTopicSetup.prepare(admin, settings(newTopicName(), false, 1, 1)))
                .isEmpty();
    }

    @Test
    void minInsyncReplicasEqualToTheReplicationFactorIsRefusedAtStart() {
        assertThatThrownBy(() -> new SpringApplicationBuilder(KopekApplication.class)
                        .run(
                                "--server.port=0",
                                "--kopek.db.url=" + TestDatabase.newDatabase(),
                                "--kopek.db.user=postgres",
                                "--kopek.psp.simulator-url="
                                        + SharedSimulator.get().baseUri(),
                                "--kopek.demo-enabled=false",
                                "--kopek.reconciler.enabled=false",
                                "--kopek.secrets-key=" + IntegrationTest.SECRETS_KEY,
                                "--KOPEK_KAFKA_TOPIC_REPLICATION_FACTOR=3",
                                "--KOPEK_KAFKA_TOPIC_MIN_INSYNC_REPLICAS=3"))
                .rootCause()
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "KOPEK_KAFKA_TOPIC_MIN_INSYNC_REPLICAS equals " + "KOPEK_KAFKA_TOPIC_REPLICATION_FACTOR (3)")
                .hasMessageContaining("the loss of any one broker would stop every write");
    }

    private static KafkaSettings settings(
            String topic, boolean create, Integer replicationFactor, Integer minInsyncReplicas) {
        return new KafkaSettings(
                SharedKafka.bootstrapServers(), topic, 4, create, replicationFactor, minInsyncReplicas);
    }

    private static String newTopicName() {
        return "kopek.durability-" + UUID.randomUUID();
    }

    private static TopicDescription describe(String topic) throws Exception {
        return admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .get(topic);
    }

    private static ConfigEntry minInsyncReplicas(String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        return admin.describeConfigs(List.of(resource))
                .all()
                .get(30, TimeUnit.SECONDS)
                .get(resource)
                .get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
    }
}
