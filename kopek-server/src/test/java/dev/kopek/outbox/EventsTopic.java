package dev.kopek.outbox;

import dev.kopek.outbox.relay.KafkaPublisher;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads the events topic from the beginning, as a consumer service would, keeping only the given keys. */
public final class EventsTopic {

    public record Published(
            String key, int partition, long offset, String eventId, String type, long sequence, String envelope) {}

    private EventsTopic() {}

    /** Every record for {@code keys}, in partition order, once {@code done} holds (or fails after the timeout). */
    public static List<Published> read(Set<String> keys, Predicate<List<Published>> done, Duration timeout) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                SharedKafka.bootstrapServers(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false);
        List<Published> seen = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> partitions = consumer.partitionsFor(SharedKafka.TOPIC).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    if (keys.contains(r.key())) {
                        seen.add(new Published(
                                r.key(),
                                r.partition(),
                                r.offset(),
                                header(r, KafkaPublisher.HEADER_EVENT_ID),
                                header(r, KafkaPublisher.HEADER_EVENT_TYPE),
                                Long.parseLong(header(r, KafkaPublisher.HEADER_SEQUENCE)),
                                r.value()));
                    }
                }
                if (done.test(seen)) {
                    return seen;
                }
            }
        }
        throw new AssertionError("the topic did not reach the expected state within " + timeout + "; saw " + seen);
    }

    /** The records of one key, in the order a consumer of that key's partition reads them. */
    public static List<Published> ofKey(List<Published> records, String key) {
        return records.stream()
                .filter(r -> r.key().equals(key))
                .sorted(java.util.Comparator.comparingLong(Published::offset))
                .toList();
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
