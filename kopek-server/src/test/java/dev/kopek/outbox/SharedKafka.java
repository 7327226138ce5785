package dev.kopek.outbox;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/** One embedded KRaft broker per test JVM, on a random port, with the events topic; stopped when the JVM exits. */
public final class SharedKafka {

    public static final String TOPIC = "kopek.events";
    private static EmbeddedKafkaKraftBroker broker;

    private SharedKafka() {}

    public static synchronized String bootstrapServers() {
        if (broker == null) {
            broker = new EmbeddedKafkaKraftBroker(1, 3, TOPIC);
            broker.afterPropertiesSet();
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(broker::destroy));
        }
        return broker.getBrokersAsString();
    }
}
