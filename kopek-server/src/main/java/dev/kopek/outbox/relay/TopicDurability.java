package dev.kopek.outbox.relay;

import java.util.Optional;

/**
 * What Kopek's topic promises an event Kafka acknowledged. The producer's {@code acks=all} waits only for the
 * replicas in sync, and a row is marked published, never to be sent again, once Kafka acknowledged it: so the
 * promise that every state change has its event holds through a broker's loss only if the topic keeps each
 * acknowledged event on two brokers at least. Kopek reads these figures from the cluster at start, whoever created
 * the topic, so that a topic which cannot keep the promise is said out loud instead of discovered when a broker
 * dies. It only warns: a single-broker Kafka is a legitimate development set-up, and the broker count is what makes
 * a low replication factor a choice or an oversight.
 *
 * @param brokers the brokers the cluster reports
 * @param replicationFactor the smallest replica count among the topic's partitions
 * @param minInsyncReplicas the topic's effective {@code min.insync.replicas} (its own, or the broker's default)
 */
record TopicDurability(int brokers, int replicationFactor, int minInsyncReplicas) {

    /** From three brokers up, a replication factor of 3 with two in sync survives one broker's loss. */
    static final int RECOMMENDED_BROKERS = 3;

    /** The one warning an operator should read about this topic, or empty when it keeps the promise. */
    Optional<String> warning(String topic) {
        String fix = "kafka-configs.sh --bootstrap-server <broker> --alter --entity-type topics --entity-name " + topic
                + " --add-config min.insync.replicas=";
        if (minInsyncReplicas > replicationFactor) {
            return Optional.of("Kafka topic " + topic + " has min.insync.replicas " + minInsyncReplicas
                    + " above its replication factor " + replicationFactor + ": Kafka refuses every event (not"
                    + " enough replicas), none reaches the topic and the outbox only grows. Lower it: " + fix
                    + Math.max(1, replicationFactor - 1));
        }
        if (brokers >= RECOMMENDED_BROKERS && replicationFactor < 2) {
            return Optional.of("Kafka topic " + topic + " has replication factor " + replicationFactor
                    + " on a cluster of " + brokers + " brokers: every event Kafka acknowledges is on one broker"
                    + " only, and if that broker's disk is lost the event is gone although Kopek marked it"
                    + " published and will not send it again. Give the topic replication factor 3"
                    + " (kafka-reassign-partitions.sh) and min.insync.replicas 2 (" + fix + "2); a topic Kopek"
                    + " creates gets them from KOPEK_KAFKA_TOPIC_REPLICATION_FACTOR=3 and"
                    + " KOPEK_KAFKA_TOPIC_MIN_INSYNC_REPLICAS=2");
        }
        if (brokers >= RECOMMENDED_BROKERS && minInsyncReplicas < 2) {
            return Optional.of("Kafka topic " + topic + " has replication factor " + replicationFactor
                    + " but min.insync.replicas " + minInsyncReplicas + " on a cluster of " + brokers
                    + " brokers: while its followers are out of sync Kafka acknowledges an event held by the"
                    + " leader alone, and that broker's loss then loses an event Kopek marked published and will"
                    + " not send again. Set min.insync.replicas 2 (" + fix + "2); a topic Kopek creates gets it"
                    + " from KOPEK_KAFKA_TOPIC_MIN_INSYNC_REPLICAS=2");
        }
        if (replicationFactor > 1 && minInsyncReplicas == replicationFactor) {
            return Optional.of("Kafka topic " + topic + " has min.insync.replicas equal to its replication factor ("
                    + replicationFactor + "): the loss of any one broker stops every write to the topic until it"
                    + " returns (events wait in the outbox meanwhile, none is lost). Lower it: " + fix
                    + (replicationFactor - 1));
        }
        return Optional.empty();
    }
}
