package dev.kopek.chaos;

import dev.kopek.chaos.Evidence.TopicEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.JsonNode;

/** A consumer of the whole topic from its beginning, as a downstream service would read it; keeps every copy. */
final class EventTap implements AutoCloseable {

    private final KafkaConsumer<String, String> consumer;
    private final List<TopicEvent> events = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    EventTap(String bootstrapServers, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumer = new KafkaConsumer<>(props);
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = Thread.ofPlatform().name("event-tap").daemon().start(this::poll);
    }

    private void poll() {
        while (running) {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                JsonNode event = Json.tryParse(r.value());
                if (event == null) {
                    continue;
                }
                JsonNode resource = event.path("resource");
                events.add(new TopicEvent(
                        Json.text(event, "id"),
                        Json.text(resource, "id"),
                        resource.path("sequence").asLong(),
                        r.partition(),
                        r.offset(),
                        Json.text(event.path("data"), "status")));
            }
        }
        consumer.close();
    }

    int size() {
        return events.size();
    }

    List<TopicEvent> events() {
        return new ArrayList<>(events);
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
