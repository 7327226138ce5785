package dev.kopek.outbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.outbox.KafkaSettings;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;

/** The relay's clients take a secured cluster's settings from the standard spring.kafka.* properties. */
class KafkaClientSettingsTest {

    private static final KafkaSettings KOPEK =
            new KafkaSettings("broker-1:9093,broker-2:9093", "kopek.events", 6, true, null, null);

    @Test
    void producerTakesTlsAndSaslFromSpringKafkaSettings() {
        KafkaProperties spring = bind(Map.of(
                "spring.kafka.security.protocol",
                "SASL_SSL",
                "spring.kafka.ssl.trust-store-location",
                "file:/etc/kopek/kafka-truststore.p12",
                "spring.kafka.ssl.trust-store-password",
                "changeit",
                "spring.kafka.ssl.trust-store-type",
                "PKCS12",
                "spring.kafka.properties.sasl.mechanism",
                "SCRAM-SHA-512",
                "spring.kafka.properties.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"kopek\" password=\"p\";",
                "spring.kafka.producer.compression-type",
                "zstd",
                "spring.kafka.client-id",
                "kopek-eu-1"));

        Map<String, Object> producer = KafkaClientSettings.producer(spring, KOPEK);

        assertThat(producer)
                .containsEntry(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL")
                .containsEntry(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512")
                .containsEntry(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12")
                .containsEntry(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, "/etc/kopek/kafka-truststore.p12")
                .containsEntry(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd")
                .containsEntry(ProducerConfig.CLIENT_ID_CONFIG, "kopek-eu-1")
                .containsEntry(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "broker-1:9093,broker-2:9093");
        assertThat(producer.get(SaslConfigs.SASL_JAAS_CONFIG).toString()).contains("ScramLoginModule");
        assertThat(KafkaClientSettings.admin(spring, KOPEK))
                .containsEntry(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL")
                .containsEntry(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512")
                .containsEntry(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "broker-1:9093,broker-2:9093");
    }

    @Test
    void deliveryGuaranteesAreNotTheOperatorsToLoosen() {
        KafkaProperties spring = bind(Map.of(
                "spring.kafka.producer.acks", "0",
                "spring.kafka.producer.properties.enable.idempotence", "false",
                "spring.kafka.properties.delivery.timeout.ms", "600000",
                "spring.kafka.bootstrap-servers", "elsewhere:9092"));

        Map<String, Object> producer = KafkaClientSettings.producer(spring, KOPEK);

        assertThat(producer)
                .containsEntry(ProducerConfig.ACKS_CONFIG, "all")
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true)
                .containsEntry(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int)
                        KOPEK.deliveryTimeout().toMillis())
                .containsEntry(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "broker-1:9093,broker-2:9093")
                .containsEntry(ProducerConfig.CLIENT_ID_CONFIG, "kopek-outbox");
    }

    private static KafkaProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("spring.kafka", KafkaProperties.class);
    }
}
