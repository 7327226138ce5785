package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The topic's durability settings: each impossible or fragile combination refused with the reason. */
class KafkaSettingsTest {

    private static KafkaSettings withDurability(Integer replicationFactor, Integer minInsyncReplicas) {
        return new KafkaSettings("broker:9092", "kopek.events", 6, true, replicationFactor, minInsyncReplicas);
    }

    @Test
    void sensibleCombinationsAndTheBrokersDefaultsAreAccepted() {
        assertThat(withDurability(null, null).topicReplicationFactor()).isNull();
        assertThat(withDurability(3, 2).topicMinInsyncReplicas()).isEqualTo(2);
        assertThat(withDurability(1, 1).topicReplicationFactor())
                .as("a single-broker development Kafka")
                .isEqualTo(1);
        assertThat(withDurability(3, null).topicReplicationFactor()).isEqualTo(3);
        assertThat(withDurability(null, 2).topicMinInsyncReplicas()).isEqualTo(2);
    }

    @Test
    void valuesOutOfRangeAreRefused() {
        assertThatThrownBy(() -> withDurability(0, null))
                .hasMessageStartingWith("KOPEK_KAFKA_TOPIC_REPLICATION_FACTOR must be 1..32767 (it was 0)");
        assertThatThrownBy(() -> withDurability(40_000, null))
                .hasMessageStartingWith("KOPEK_KAFKA_TOPIC_REPLICATION_FACTOR must be 1..32767");
        assertThatThrownBy(() -> withDurability(null, -1))
                .hasMessageStartingWith("KOPEK_KAFKA_TOPIC_MIN_INSYNC_REPLICAS must be 1..32767 (it was -1)");
    }

    @Test
    void minInsyncReplicasMustStayBelowTheReplicationFactor() {
        assertThatThrownBy(() -> withDurability(3, 3))
                .hasMessageContaining("the loss of any one broker would stop every write")
                .hasMessageContaining("e.g. 2 with a replication factor of 3");
        assertThatThrownBy(() -> withDurability(2, 3)).hasMessageContaining("Kafka would refuse every event");
        assertThatThrownBy(() -> withDurability(1, 2)).hasMessageContaining("Kafka would refuse every event");
    }
}
