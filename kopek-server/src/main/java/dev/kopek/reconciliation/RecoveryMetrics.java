package dev.kopek.reconciliation;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.OffsetDateTime;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Gauges read at scrape time: what is stuck, for how long, and what waits for a person. */
@Component
class RecoveryMetrics {

    RecoveryMetrics(MeterRegistry registry, JdbcClient jdbc, ManualReviews reviews, Clock clock) {
        Gauge.builder(
                        "kopek.payments.unknown",
                        jdbc,
                        db -> db.sql("SELECT count(*) FROM published_payments WHERE status = 'UNKNOWN'")
                                .query(Long.class)
                                .single())
                .description("payments whose PSP outcome is unknown")
                .register(registry);
        Gauge.builder(
                        "kopek.payments.unknown.oldest.age.seconds",
                        jdbc,
                        db -> db.sql("SELECT min(updated_at) FROM published_payments WHERE status = 'UNKNOWN'")
                                .query(OffsetDateTime.class)
                                .optional()
                                .map(oldest -> (double) (clock.millis()
                                                - oldest.toInstant().toEpochMilli())
                                        / 1000.0)
                                .orElse(0.0))
                .description("age of the oldest unknown payment")
                .register(registry);
        Gauge.builder("kopek.manual_review.open", reviews, ManualReviews::openCount)
                .description("payments waiting for a person")
                .register(registry);
    }
}
