package dev.kopek.outbox.relay;

import dev.kopek.outbox.KafkaSettings;
import dev.kopek.outbox.OutboxProperties;
import dev.kopek.outbox.store.OutboxStore;
import dev.kopek.platform.DatabaseOutages;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The relays exist only with {@code KOPEK_KAFKA_BOOTSTRAP_SERVERS}; {@code KOPEK_OUTBOX_MODE} decides which of the
 * two the workers run. Kafka being down at start does not stop Kopek: the outbox simply fills until it is back.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(KafkaConfigured.class)
@EnableConfigurationProperties(KafkaProperties.class)
class RelayConfiguration {

    @Bean(destroyMethod = "destroy")
    DefaultKafkaProducerFactory<String, String> outboxProducerFactory(KafkaProperties spring, KafkaSettings kafka) {
        return new DefaultKafkaProducerFactory<>(KafkaClientSettings.producer(spring, kafka));
    }

    @Bean
    KafkaTemplate<String, String> outboxKafkaTemplate(DefaultKafkaProducerFactory<String, String> factory) {
        return new KafkaTemplate<>(factory);
    }

    @Bean
    KafkaPublisher outboxKafkaPublisher(
            KafkaTemplate<String, String> outboxKafkaTemplate,
            KafkaSettings kafka,
            KafkaProperties spring,
            OutboxProperties properties,
            MeterRegistry meters,
            Clock clock) {
        EventsTopic topic = new EventsTopic(KafkaClientSettings.admin(spring, kafka), kafka, meters);
        // At start, so that an operator sees the topic's replication (and its warning) without waiting for an event.
        topic.prepared();
        return new KafkaPublisher(
                outboxKafkaTemplate,
                topic,
                kafka.deliveryTimeout().plus(properties.relay().ackTimeout()),
                meters,
                clock);
    }

    @Bean
    PollingRelay pollingRelay(
            OutboxStore store,
            TransactionTemplate tx,
            KafkaPublisher publisher,
            Clock clock,
            OutboxProperties properties,
            MeterRegistry meters) {
        Gauge.builder(
                        "kopek.outbox.lag.seconds",
                        store,
                        s -> s.oldestUnpublished()
                                .map(oldest -> (clock.millis() - oldest.toEpochMilli()) / 1000.0)
                                .orElse(0.0))
                .description("age of the oldest event not yet acknowledged by Kafka")
                .register(meters);
        Gauge.builder("kopek.outbox.unpublished", store, OutboxStore::unpublishedCount)
                .description("events not yet acknowledged by Kafka")
                .register(meters);
        return new PollingRelay(store, tx, publisher, clock, properties.relay().batchSize());
    }

    @Bean(destroyMethod = "stop")
    CdcRelay cdcRelay(
            DataSource dataSource,
            PollingRelay pollingRelay,
            KafkaPublisher publisher,
            OutboxStore store,
            OutboxProperties properties,
            Clock clock,
            DatabaseOutages outages,
            MeterRegistry meters) {
        return new CdcRelay(dataSource, pollingRelay, publisher, store, properties.cdc(), clock, outages, meters);
    }
}
