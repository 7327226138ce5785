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
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

/**
 * A Kafka outage, found in review (high availability): the relay used to log an ERROR with a stack trace on every
 * pass, every 5–15 s for as long as Kafka was down. Now the log says once that Kafka went away (with the cause, no
 * stack trace), once that it came back and after how long, and only at DEBUG in between; the events wait in the
 * outbox and are published once Kafka answers again. The CDC relay, whose start publishes the backlog first, says
 * the same through the same bookkeeping ({@code KafkaOutageLog}).
 */
class KafkaOutageLogTest extends OutboxIntegrationTest {

    private static final Duration PASS_PAUSE = Duration.ofSeconds(6);
    /** A slot of this test's own, dropped at its end: the CDC relay's other tests find theirs as they left it. */
    private static final String OUTAGE_SLOT = "kopek_outbox_outage";

    @Autowired
    OutboxProperties properties;

    @Autowired
    KafkaSettings kafka;

    @Autowired
    DatabaseOutages outages;

    @Autowired
    DataSource dataSource;

    @Autowired
    MeterRegistry meters;

    private final List<Logger> loggers = List.of(
            (Logger) LoggerFactory.getLogger(OutboxWorkers.class), (Logger) LoggerFactory.getLogger(CdcRelay.class));
    private final Map<Logger, Level> levelsBefore = new HashMap<>();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();

    @BeforeEach
    void attach() {
        log.start();
        for (Logger logger : loggers) {
            levelsBefore.put(logger, logger.getLevel());
            logger.setLevel(Level.DEBUG);
            logger.addAppender(log);
        }
    }

    @AfterEach
    void detach() {
        for (Logger logger : loggers) {
            logger.detachAppender(log);
            logger.setLevel(levelsBefore.get(logger));
        }
    }

    @Test
    void anOutageIsOneWarningAndOneLineWhenItEndsNeverAStackTrace() {
        boolean[] kafkaDown = {true};
        OutboxWorkers workers = workers(relayToKafka(kafkaDown));

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

    /**
     * Found in review: the CDC relay's start, which publishes the backlog before it streams, logged an ERROR with a
     * stack trace on every watchdog pass while Kafka was away; and the slot it created on the first of those passes
     * (a failover during a Kafka outage) was never counted nor warned about, since the later passes found it.
     */
    @Test
    void theCdcRelaysStartDuringAnOutageIsOneWarningAndTheSlotItCreatedIsCounted() throws InterruptedException {
        OutboxProperties.Cdc settings = properties.cdc();
        boolean[] kafkaDown = {true};
        CdcRelay cdc = new CdcRelay(
                dataSource,
                relayToKafka(kafkaDown),
                publisher,
                store,
                new OutboxProperties.Cdc(
                        OUTAGE_SLOT,
                        settings.publication(),
                        settings.schema(),
                        settings.watchdogInterval(),
                        settings.pollInterval()),
                clock,
                outages,
                meters);
        double slotsBefore = meters.counter("kopek.outbox.cdc.slot.created").count();
        try {
            for (int pass = 0; pass < 4; pass++) {
                assertThat(cdc.ensureRunning())
                        .as("the relay starts only once Kafka takes the backlog")
                        .isFalse();
                clock.advance(PASS_PAUSE);
            }
            kafkaDown[0] = false;
            assertThat(cdc.ensureRunning()).isTrue();
        } finally {
            cdc.stop();
            dropSlot(OUTAGE_SLOT);
        }

        assertThat(log.list).as("no stack trace").allMatch(e -> e.getThrowableProxy() == null);
        assertThat(log.list).as("no error").noneMatch(e -> e.getLevel() == Level.ERROR);
        assertThat(at(Level.WARN)).hasSize(2);
        assertThat(at(Level.WARN).get(0))
                .contains("CDC relay: Kafka unavailable", "no acknowledgement within 30s", "TimeoutException");
        assertThat(at(Level.WARN).get(1)).contains("slot " + OUTAGE_SLOT + " was missing");
        assertThat(at(Level.DEBUG)).hasSize(3).allMatch(m -> m.contains("CDC relay: Kafka still unavailable"));
        assertThat(at(Level.INFO))
                .filteredOn(m -> m.contains("Kafka available again"))
                .singleElement()
                .asString()
                .contains("CDC relay: Kafka available again after 4 failed passes over 24 s");
        assertThat(meters.counter("kopek.outbox.cdc.slot.created").count())
                .as("the slot it created, counted once")
                .isEqualTo(slotsBefore + 1);
    }

    /** The polling relay, which publishes nothing while {@code kafkaDown[0]} holds. */
    private PollingRelay relayToKafka(boolean[] kafkaDown) {
        return new PollingRelay(store, tx, publisher, clock, 50) {
            @Override
            public int drain(int maxBatches) {
                if (kafkaDown[0]) {
                    throw new PublishFailed("no acknowledgement within 30s for a batch of 3", new TimeoutException());
                }
                return super.drain(maxBatches);
            }
        };
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
