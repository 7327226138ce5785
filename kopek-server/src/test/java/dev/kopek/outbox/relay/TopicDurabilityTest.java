package dev.kopek.outbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The start-up warning about the events topic, decided from (brokers, replication factor, min.insync.replicas):
 * the cases a three-broker cluster would show, without three brokers.
 */
class TopicDurabilityTest {

    private static final String TOPIC = "kopek.events";

    @Test
    void aTopicThatKeepsEveryAcknowledgedEventOnTwoBrokersIsNotWarnedAbout() {
        assertThat(new TopicDurability(3, 3, 2).warning(TOPIC)).isEmpty();
        assertThat(new TopicDurability(5, 5, 3).warning(TOPIC)).isEmpty();
        assertThat(new TopicDurability(6, 3, 2).warning(TOPIC)).isEmpty();
    }

    @Test
    void aSmallDevelopmentClusterIsLegitimate() {
        assertThat(new TopicDurability(1, 1, 1).warning(TOPIC)).isEmpty();
        assertThat(new TopicDurability(2, 1, 1).warning(TOPIC)).isEmpty();
        assertThat(new TopicDurability(2, 2, 1).warning(TOPIC)).isEmpty();
    }

    @Test
    void oneReplicaOnAThreeBrokerClusterRisksEveryAcknowledgedEvent() {
        assertThat(new TopicDurability(3, 1, 1).warning(TOPIC))
                .hasValueSatisfying(w -> assertThat(w)
                        .contains("kopek.events has replication factor 1 on a cluster of 3 brokers")
                        .contains("every event Kafka acknowledges is on one broker only")
                        .contains("marked it published and will not send it again")
                        .contains("KOPEK_KAFKA_TOPIC_REPLICATION_FACTOR=3")
                        .contains("KOPEK_KAFKA_TOPIC_MIN_INSYNC_REPLICAS=2")
                        .contains("--add-config min.insync.replicas=2"));
    }

    @Test
    void oneInSyncReplicaLetsTheLeaderAloneAcknowledge() {
        assertThat(new TopicDurability(3, 3, 1).warning(TOPIC))
                .hasValueSatisfying(w -> assertThat(w)
                        .contains("replication factor 3 but min.insync.replicas 1 on a cluster of 3 brokers")
                        .contains("acknowledges an event held by the leader alone")
                        .contains("KOPEK_KAFKA_TOPIC_MIN_INSYNC_REPLICAS=2")
                        .doesNotContain("KOPEK_KAFKA_TOPIC_REPLICATION_FACTOR"));
    }

    @Test
    void moreInSyncReplicasThanReplicasRefusesEveryEventOnAnyCluster() {
        assertThat(new TopicDurability(1, 1, 2).warning(TOPIC))
                .hasValueSatisfying(w -> assertThat(w)
                        .contains("min.insync.replicas 2 above its replication factor 1")
                        .contains("Kafka refuses every event")
                        .contains("--add-config min.insync.replicas=1"));
        assertThat(new TopicDurability(3, 2, 3).warning(TOPIC))
                .hasValueSatisfying(w -> assertThat(w).contains("--add-config min.insync.replicas=1"));
    }

    @Test
    void asManyInSyncReplicasAsReplicasStopsWritesWhenOneBrokerGoes() {
        assertThat(new TopicDurability(3, 3, 3).warning(TOPIC))
                .hasValueSatisfying(w -> assertThat(w)
                        .contains("min.insync.replicas equal to its replication factor (3)")
                        .contains("the loss of any one broker stops every write")
                        .contains("--add-config min.insync.replicas=2"));
        assertThat(new TopicDurability(2, 2, 2).warning(TOPIC)).isPresent();
    }
}
