package dev.kopek.invariants;

import dev.kopek.platform.DatabaseOutages;
import dev.kopek.platform.InvariantCheck;
import dev.kopek.platform.InvariantCheck.Finding;
import dev.kopek.platform.InvariantCheck.Slice;
import dev.kopek.platform.ReadReplica;
import dev.kopek.reconciliation.ReviewExcuses;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The production audit's job: every tick, one slice of every check, each on its own cursor, so that a large
 * database is covered a slice at a time at a bounded cost per tick (issue 26 §2; docs/invariants.md). A slice is
 * read on the read replica when there is one (docs/read-replicas.md), in one read-only REPEATABLE READ transaction,
 * so a check that asks two modules sees one snapshot; its cursor, its findings and the review items it opens are
 * written on the primary (with what a check that carries state between slices leaves to do there, in the same
 * transaction), and what a person already has in a review item (read on the primary) is set aside; the
 * rest is recorded, logged at ERROR with its ids, queued for review when it is new, and counted in
 * {@code kopek_audit_violations{check}}. A check that fails is logged and retried at the next tick; the others go
 * on. While a database is away the job pauses and resumes by itself ({@link DatabaseOutages}), as every worker does.
 */
@Component
@EnableConfigurationProperties(InvariantsProperties.class)
public class InvariantAuditor {

    private static final Logger log = LoggerFactory.getLogger(InvariantAuditor.class);
    private static final String WORKER = "invariants";

    private final List<InvariantCheck> checks;
    private final InvariantCursors cursors;
    private final InvariantViolations violations;
    private final ReviewExcuses reviews;
    private final InvariantsProperties properties;
    private final ReadReplica replica;
    private final DatabaseOutages outages;
    private final TransactionTemplate write;
    private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();
    private final Map<String, Timer> sliceTimes = new ConcurrentHashMap<>();

    InvariantAuditor(
            List<InvariantCheck> checks,
            InvariantCursors cursors,
            InvariantViolations violations,
            ReviewExcuses reviews,
            InvariantsProperties properties,
            PlatformTransactionManager transactions,
            ReadReplica replica,
            DatabaseOutages outages,
            MeterRegistry meters) {
        this.checks = checks.stream()
                .sorted(Comparator.comparing(InvariantCheck::name))
                .toList();
        this.cursors = cursors;
        this.violations = violations;
        this.reviews = reviews;
        this.properties = properties;
        this.replica = replica;
        this.outages = outages;
        this.write = new TransactionTemplate(transactions);
        for (InvariantCheck check : this.checks) {
            AtomicLong count = new AtomicLong();
            gauges.put(check.name(), count);
            Gauge.builder("kopek.audit.violations", count, AtomicLong::get)
                    .description("violations of a law the production audit found and no later pass cleared")
                    .tag("check", check.name())
                    .register(meters);
            sliceTimes.put(
                    check.name(),
                    Timer.builder("kopek.audit.slice")
                            .description(
                                    "time to read one slice of one invariant check and settle it on the primary (its cost"
                                            + " per tick)")
                            .tag("check", check.name())
                            .register(meters));
        }
    }

    @Scheduled(
            fixedDelayString = "${kopek.invariants.interval:30s}",
            initialDelayString = "${kopek.invariants.interval:30s}")
    void scheduled() {
        if (properties.enabled() && outages.mayRun(WORKER)) {
            tick();
        }
    }

    /**
     * One slice of every check (those another instance holds are skipped); returns the rows checked. While the
     * database is away the tick ends at the first failure, gauges included: the outage is logged once for the worker
     * ({@link DatabaseOutages}), not once per check, and never as an error with a stack trace.
     */
    public long tick() {
        long rows = 0;
        for (InvariantCheck check : checks) {
            try {
                rows += step(check).map(Slice::rows).orElse(0);
                outages.succeeded(WORKER);
            } catch (RuntimeException e) {
                if (outages.failed(WORKER, e)) {
                    return rows;
                }
                log.error("invariant check {} failed; it runs again at the next tick", check.name(), e);
            }
        }
        try {
            refreshGauges();
        } catch (RuntimeException e) {
            if (!outages.failed(WORKER, e)) {
                log.error("the invariant gauges were not refreshed; they are at the next tick", e);
            }
        }
        return rows;
    }

    /**
     * Runs every check through the rest of the pass under way and then one whole pass from the start, slice by
     * slice: afterwards every current violation was seen by a pass that began after this call. For tests and for
     * audits at the end of a run; the scheduled ticks do the same work a slice at a time.
     */
    public void completePasses() {
        for (InvariantCheck check : checks) {
            finishPass(check);
            finishPass(check);
        }
        refreshGauges();
    }

    private void finishPass(InvariantCheck check) {
        Slice slice;
        do {
            slice = step(check)
                    .orElseThrow(() -> new IllegalStateException(
                            "invariant check " + check.name() + " is held by another instance"));
        } while (!slice.endsPass(properties.sliceSize()));
    }

    /**
     * One slice of one check, as it counts; empty when another instance holds its cursor. The slice's time (the
     * timer) is its read and what it leaves to the primary, not the bookkeeping around them.
     */
    private Optional<Slice> step(InvariantCheck check) {
        Optional<InvariantCursors.Lease> leased = cursors.lease(check.name(), properties.lease());
        if (leased.isEmpty()) {
            return Optional.empty();
        }
        InvariantCursors.Lease lease = leased.get();
        try {
            record Read(Slice slice, long total) {}
            long started = System.nanoTime();
            Read read = replica.inSnapshotInPlaceOfPrimary(() -> {
                Slice slice = check.check(lease.position(), properties.sliceSize());
                return new Read(slice, check.total());
            });
            return Optional.of(write.execute(status -> {
                Slice slice = read.slice().settled();
                sliceTimes.get(check.name()).record(Duration.ofNanos(System.nanoTime() - started));
                List<Finding> found = reviews.unexcused(slice.findings());
                boolean ends = slice.endsPass(properties.sliceSize());
                if (!cursors.advance(lease, slice.last(), slice.rows(), found.size(), ends, read.total())) {
                    // The lease ran out and another instance took the check: its slices count, this one does not
                    // (a check's state written on the primary must move with its cursor, or not at all).
                    status.setRollbackOnly();
                    return slice;
                }
                for (Finding f : found) {
                    recordViolation(check, lease.pass(), f);
                }
                if (ends) {
                    violations.clearUnseen(check.name(), lease.pass());
                }
                return slice;
            }));
        } catch (RuntimeException e) {
            try {
                cursors.release(lease);
            } catch (RuntimeException notReleased) {
                // The database that failed the slice often fails the release too; the lease then runs out by itself.
                e.addSuppressed(notReleased);
            }
            throw e;
        }
    }

    private void recordViolation(InvariantCheck check, long pass, Finding f) {
        InvariantViolations.Recorded recorded = violations.record(check.name(), pass, f);
        log.error(
                "invariant violated: check={} violation={} subject={} merchant={} payment={}: {}",
                check.name(),
                recorded.id(),
                f.subject(),
                f.merchant(),
                f.payment(),
                f.detail());
        if (recorded.fresh()) {
            reviews.open(recorded.id(), f.merchant(), f.payment(), check.name() + ": " + f.detail());
        }
    }

    private void refreshGauges() {
        Map<String, Long> counts = violations.currentCounts();
        gauges.forEach((check, gauge) -> gauge.set(counts.getOrDefault(check, 0L)));
    }
}
