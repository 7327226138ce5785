package dev.kopek.outbox.relay;

import dev.kopek.outbox.relay.KafkaPublisher.PublishFailed;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * What a relay logs while Kafka does not take its batches (down, unreachable, or its topic not ready): no defect of
 * Kopek's, and it lasts as long as Kafka's outage. One warning with the cause when it starts, a debug line per
 * failed pass after it, a line when it ends; the backlog's age is the gauge {@code kopek_outbox_lag_seconds}, which
 * the KopekKafkaRelayLag alert watches (docs/runbooks/stuck-outbox.md), not a stack trace every few seconds. The
 * polling relay and the CDC relay each keep one, so both say the same in the same words; the lines go to the
 * relay's own logger.
 */
public final class KafkaOutageLog {

    private final String relay;
    private final String meanwhile;
    private final Logger log;
    private final Clock clock;

    /** Null while Kafka takes the relay's batches; the relay's threads (a watchdog, an engine) share it. */
    private Outage outage;

    /**
     * @param relay the relay's name, at the start of each line
     * @param meanwhile what happens to the events during the outage, for the warning
     */
    public KafkaOutageLog(String relay, String meanwhile, Logger log, Clock clock) {
        this.relay = relay;
        this.meanwhile = meanwhile;
        this.log = log;
        this.clock = clock;
    }

    /** Since when Kafka took no batch, and how many passes failed. */
    private record Outage(Instant since, int failures) {}

    /** A pass could not publish: the first of an outage is a warning with the cause, the others debug lines. */
    public synchronized void failed(PublishFailed e) {
        Outage before = outage;
        outage = before == null ? new Outage(clock.instant(), 1) : new Outage(before.since(), before.failures() + 1);
        String cause = e.getCause() == null ? e.getMessage() : e.getMessage() + ": " + e.getCause();
        if (before == null) {
            log.warn("{}: Kafka unavailable ({}); {}", relay, cause, meanwhile);
        } else {
            log.debug("{}: Kafka still unavailable ({}), pass {} failed", relay, cause, outage.failures());
        }
    }

    /** A pass published (or had nothing to): an outage it was in is over, and the log says so once. */
    public synchronized void published() {
        Outage ended = outage;
        if (ended != null) {
            outage = null;
            log.info(
                    "{}: Kafka available again after {} failed passes over {} s; publishing",
                    relay,
                    ended.failures(),
                    Duration.between(ended.since(), clock.instant()).toSeconds());
        }
    }
}
