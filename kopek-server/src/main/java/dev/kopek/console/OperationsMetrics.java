package dev.kopek.console;

import dev.kopek.platform.RecoveryMeters;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;

/**
 * The operations metrics docs/design.md and issue 13 name, for every kind of operation, registered at start so a scrape
 * always shows them (zero is an answer; a missing series hides an alert). ops/grafana/kopek.json and
 * ops/prometheus/alerts.yml are built on these names, and a test keeps them in step.
 */
@Component
class OperationsMetrics {

    OperationsMetrics(MeterRegistry meters, HealthQueries health) {
        for (String kind : RecoveryMeters.KINDS) {
            Gauge.builder(
                            "kopek.operations.unknown",
                            health,
                            h -> h.unknowns(kind).count())
                    .description("operations whose PSP outcome is unknown, by kind")
                    .tag("kind", kind)
                    .register(meters);
            Gauge.builder(
                            "kopek.operations.unknown.oldest.age.seconds",
                            health,
                            h -> h.unknowns(kind).oldestAgeSeconds())
                    .description("age of the oldest unknown operation, by kind")
                    .tag("kind", kind)
                    .register(meters);
        }
        // The payment-only names from before the kinds stay (docs/operations.md): the kind="payment" figure again.
        Gauge.builder(
                        "kopek.payments.unknown",
                        health,
                        h -> h.unknowns("payment").count())
                .description("payments whose PSP outcome is unknown")
                .register(meters);
        Gauge.builder(
                        "kopek.payments.unknown.oldest.age.seconds",
                        health,
                        h -> h.unknowns("payment").oldestAgeSeconds())
                .description("age of the oldest unknown payment")
                .register(meters);
        for (String kind : HealthQueries.REVIEW_SUBJECTS) {
            Gauge.builder("kopek.manual_review.open.by_kind", health, h -> h.openReviews(kind))
                    .description("manual-review items waiting for a person, by kind")
                    .tag("kind", kind)
                    .register(meters);
        }
        RecoveryMeters.registerAll(meters);
        Gauge.builder("kopek.outbox.consumer.lag.seconds", health, HealthQueries::feedLagSeconds)
                .description("age of the oldest event a consumer has not received yet")
                .tag("consumer", "feed")
                .register(meters);
        Gauge.builder("kopek.outbox.consumer.lag.seconds", health, HealthQueries::webhookLagSeconds)
                .description("age of the oldest event a consumer has not received yet")
                .tag("consumer", "webhooks")
                .register(meters);
        Gauge.builder("kopek.webhooks.dead_letter", health, HealthQueries::deadLetters)
                .description("webhook deliveries given up on after the retry window")
                .register(meters);
        Gauge.builder("kopek.webhook_endpoints.disabled", health, HealthQueries::disabledEndpoints)
                .description("merchant webhook endpoints disabled after failing for the retry window")
                .register(meters);
        Gauge.builder("kopek.settlement.breaks.reported", health, HealthQueries::reportedBreaks)
                .description("settlement breaks reported and not yet acknowledged or resolved")
                .register(meters);
        meters.counter("kopek.webhooks.delivery.failures");
        meters.counter("kopek.webhooks.attempts", "outcome", "succeeded");
        meters.counter("kopek.webhooks.attempts", "outcome", "failed");
    }
}
