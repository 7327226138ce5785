package dev.kopek.outbox.relay;

import dev.kopek.outbox.KafkaSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;

/**
 * The Kafka clients' settings: everything a cluster asks of a client (TLS, SASL, client id, compression, any raw
 * {@code spring.kafka.properties.*}) comes from the standard {@code spring.kafka.*} settings, so
 * {@code SPRING_KAFKA_SECURITY_PROTOCOL=SASL_SSL} and friends work as in any Spring application. Kopek then
 * overrides only what its delivery contract rests on (acks, idempotence, ordering, the timeouts its relay waits
 * out) and the bootstrap servers ({@code KOPEK_KAFKA_BOOTSTRAP_SERVERS}, the switch that turns the relay on).
 */
final class KafkaClientSettings {

    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);

    private KafkaClientSettings() {}

    static Map<String, Object> producer(KafkaProperties spring, KafkaSettings kopek) {
        Map<String, Object> config = new HashMap<>(spring.buildProducerProperties());
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kopek.bootstrapServers());
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "kopek-outbox");
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        // acks=all + idempotence: an acknowledged record is on every in-sync replica, and the producer's own
        // retries neither duplicate nor reorder records of one partition. Not the operator's to loosen.
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 1);
        // The relay's acknowledgement wait is computed from these: they stay Kopek's.
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int)
                kopek.deliveryTimeout().toMillis());
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        return config;
    }

    static Map<String, Object> admin(KafkaProperties spring, KafkaSettings kopek) {
        Map<String, Object> config = new HashMap<>(spring.buildAdminProperties());
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kopek.bootstrapServers());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis());
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis());
        return config;
    }

    static Duration adminTimeout() {
        return ADMIN_TIMEOUT;
    }
}
