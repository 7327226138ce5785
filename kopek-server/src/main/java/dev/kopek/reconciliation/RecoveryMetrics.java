package dev.kopek.reconciliation;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;

/**
 * The gauge of what waits for a person, read at scrape time. What is stuck and for how long (the unknown outcomes of
 * every kind, the payment-only names included) is the console's read model's ({@code OperationsMetrics}): one figure,
 * one query, on the Health page and at {@code /actuator/prometheus}.
 */
@Component
class RecoveryMetrics {

    RecoveryMetrics(MeterRegistry registry, ManualReviews reviews) {
        Gauge.builder("kopek.manual_review.open", reviews, ManualReviews::openCount)
                .description("payments waiting for a person")
                .register(registry);
    }
}
