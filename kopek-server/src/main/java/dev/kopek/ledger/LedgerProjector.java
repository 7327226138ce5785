package dev.kopek.ledger;

import dev.kopek.ledger.jdbc.BalanceStore;
import dev.kopek.platform.DatabaseOutages;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Moves committed postings into the balance projection after the fact (V162): one statement per pass, on every
 * instance, of which one at a time does the work. Balance reads do not wait for it — they add what it has not reached
 * yet — so a pass that fails or an instance that stops only leaves more for the next pass.
 */
@Component
public class LedgerProjector {

    private static final Logger log = LoggerFactory.getLogger(LedgerProjector.class);
    private static final String WORKER = "ledger projector";

    private final BalanceStore balances;
    private final TransactionTemplate tx;
    private final Counter projected;
    private final DatabaseOutages outages;

    LedgerProjector(
            BalanceStore balances, TransactionTemplate tx, MeterRegistry meters, DatabaseOutages outages, Clock clock) {
        this.balances = balances;
        this.tx = tx;
        this.outages = outages;
        this.projected = Counter.builder("kopek.ledger.projected")
                .description("journal transactions added to the balance projection")
                .register(meters);
        // Read at each scrape: any instance answers for the whole database (the alert takes the max).
        Gauge.builder("kopek.ledger.projection.lag.seconds", balances, b -> b.unprojectedAgeSeconds(clock.instant()))
                .description("how long the oldest journal transaction not in the balance projection has waited")
                .register(meters);
    }

    @Scheduled(fixedDelayString = "${kopek.ledger.projection-interval:200ms}")
    void scheduled() {
        if (!outages.mayRun(WORKER)) {
            return;
        }
        try {
            project();
            outages.succeeded(WORKER);
        } catch (RuntimeException e) {
            if (!outages.failed(WORKER, e)) {
                log.warn("ledger projection pass failed; the next pass takes its postings: {}", e.toString());
            }
        }
    }

    /** One pass; the journal transactions it projected, or -1 when another instance's pass was running. */
    public int project() {
        // The mark is locked and read first, then the pass runs from it as a value, in one transaction.
        int n = tx.execute(
                status -> balances.lockMark().map(balances::projectFrom).orElse(-1));
        if (n > 0) {
            projected.increment(n);
        }
        return n;
    }
}
