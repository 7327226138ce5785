package dev.kopek.reconciliation.settlement;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;

/**
 * {@code kopek.settlement.breaks.open{type, status}}: open breaks per type, as candidates (seen once, may still be a
 * day-boundary shift) and as reported (seen on two consecutive passes: someone should look). Read at scrape time.
 */
@Component
class SettlementMetrics {

    SettlementMetrics(MeterRegistry registry, ReconBreaks breaks) {
        for (BreakType type : BreakType.values()) {
            for (BreakStatus status : new BreakStatus[] {BreakStatus.CANDIDATE, BreakStatus.REPORTED}) {
                Gauge.builder("kopek.settlement.breaks.open", breaks, b -> b.count(type, status))
                        .tag("type", type.apiName())
                        .tag("status", status.apiName())
                        .description("settlement breaks not yet closed, by type and status")
                        .register(registry);
            }
        }
    }
}
