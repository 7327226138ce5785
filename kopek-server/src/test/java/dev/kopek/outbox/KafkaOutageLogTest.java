package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.kopek.outbox.relay.CdcRelay;
import dev.kopek.outbox.relay.KafkaPublisher.PublishFailed;
import dev.kopek.outbox.relay.PollingRelay;
import dev.kopek.platform.DatabaseOutages;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

/**
 * A Kafka outage, found in review (high availability): the relay used to log an ERROR with a stack trace on every
 * pass, every 5–15 s for as long as Kafka was down. Now the log says once that Kafka went away (with the cause, no
 * stack trace), once that it came back and after how long, and only at DEBUG in between; the events wait in the
 * outbox and are published once Kafka answers again.
 */
class KafkaOutageLogTest extends OutboxIntegrationTest {

    private static final Duration PASS_PAUSE = Duration.ofSeconds(6);

    @Autowired
    OutboxProperties properties;

    @Autowired
    KafkaSettings kafka;

    @Autowired
    DatabaseOutages outages;

    private final Logger logger = (Logger) LoggerFactory.getLogger(OutboxWorkers.class);
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private Level levelBefore;

    @AfterEach
    void detach() {
        logger.detachAppender(log);
        logger.setLevel(levelBefore);
    }

    @Test
    void anOutageIsOneWarningAndOneLineWhenItEndsNeverAStackTrace() {
        levelBefore = logger.getLevel();
        logger.setLevel(Level.DEBUG);
        log.start();
        logger.addAppender(log);
        boolean[] kafkaDown = {true};
        PollingRelay relayToKafka = new PollingRelay(store, tx, publisher, clock, 50) {
            @Override
            public int drain(int maxBatches) {
                if (kafkaDown[0]) {
                    throw new PublishFailed("no acknowledgement within 30s for a batch of 3", new TimeoutException());
                }
                return super.drain(maxBatches);
            }
        };
        OutboxWorkers workers = workers(relayToKafka);

        for (int pass = 0; pass < 4; pass++) {
            workers.relay();
            clock.advance(PASS_PAUSE);
        }
        kafkaDown[0] = false;
        workers.relay();

        assertThat(log.list).as("no stack trace").allMatch(e -> e.getThrowableProxy() == null);
        assertThat(log.list).as("no error").noneMatch(e -> e.getLevel() == Level.ERROR);
        assertThat(at(Level.WARN))
                .singleElement()
                .asString()
                .contains("Kafka unavailable", "no acknowledgement within 30s", "TimeoutException");
        assertThat(at(Level.DEBUG)).hasSize(3).allMatch(m -> m.contains("Kafka still unavailable"));
        assertThat(at(Level.INFO))
                .singleElement()
                .asString()
                .contains("Kafka available again after 4 failed passes over 24 s");
    }

    private List<String> at(Level level) {
        return log.list.stream()
                .filter(e -> e.getLevel() == level)
                .map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    /** The scheduled workers as an instance with its workers on runs them, over {@code relayToKafka}. */
    private OutboxWorkers workers(PollingRelay relayToKafka) {
        OutboxProperties enabled = new OutboxProperties(
                OutboxProperties.Mode.POLLING,
                true,
                properties.relay(),
                properties.cdc(),
                properties.webhooks(),
                properties.retention());
        StaticListableBeanFactory beans = new StaticListableBeanFactory(Map.of("relay", relayToKafka));
        return new OutboxWorkers(
                enabled,
                beans.getBeanProvider(PollingRelay.class),
                beans.getBeanProvider(CdcRelay.class),
                deliveries,
                store,
                kafka,
                clock,
                outages);
    }
}
