package dev.kopek.reconciliation.settlement;

import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.SettlementReport;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Service;

/**
 * A settlement run for a date: fetch and load the files of that date and of the {@code boundaryDays} days before,
 * then match each, oldest first. The earlier days are the re-check: their second sighting, now that the file after
 * them is in. The scheduled daily run and the admin run are the same run.
 */
@Service
@EnableConfigurationProperties(SettlementProperties.class)
public class SettlementReconciliation {

    private static final Logger log = LoggerFactory.getLogger(SettlementReconciliation.class);

    private final PaymentProvider psp;
    private final SettlementFiles files;
    private final BreakMatcher matcher;
    private final UnknownChargeResolver resolver;
    private final ReconBreaks breaks;
    private final SettlementProperties properties;
    private final Clock clock;

    SettlementReconciliation(PaymentProvider psp, SettlementFiles files, BreakMatcher matcher,
            UnknownChargeResolver resolver, ReconBreaks breaks, SettlementProperties properties, Clock clock) {
        this.psp = psp;
        this.files = files;
        this.matcher = matcher;
        this.resolver = resolver;
        this.breaks = breaks;
        this.properties = properties;
        this.clock = clock;
    }

    /** The latest date whose file is final: yesterday, in UTC on Kopek's clock. */
    public LocalDate latestClosedDate() {
        return LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).minusDays(1);
    }

    public RunResult run(LocalDate date, Trigger trigger) {
        if (date.isAfter(latestClosedDate())) {
            return new RunResult.DateNotClosed(date, latestClosedDate());
        }
        List<LocalDate> dates = new ArrayList<>();
        for (int back = properties.boundaryDays(); back >= 0; back--) {
            dates.add(date.minusDays(back));
        }
        // Every file first: the re-check of an earlier day needs the later file to see a row that crossed midnight.
        for (LocalDate day : dates) {
            try {
                SettlementReport report = psp.settlementReport(day);
                if (!report.date().equals(day) || !report.provider().equals(psp.name())) {
                    throw new IllegalStateException("asked " + psp.name() + " for " + day + ", got "
                            + report.provider() + " " + report.date());
                }
                files.load(report);
            } catch (RuntimeException e) {
                log.error("settlement: the {} file for {} could not be fetched or stored", psp.name(), day, e);
                return new RunResult.FileUnavailable(day, e.getMessage());
            }
        }
        List<PassSummary> passes = new ArrayList<>();
        for (LocalDate day : dates) {
            PassSummary pass = matcher.pass(psp.name(), day, trigger, !day.equals(date));
            int resolved = resolver.resolve(psp.name(), day);
            if (resolved > 0) {
                breaks.countResolved(pass.runId(), resolved);
                pass = pass.withResolved(resolved);
            }
            passes.add(pass);
        }
        return new RunResult.Completed(date, passes);
    }
}
