package dev.kopek.reconciliation.settlement;

import dev.kopek.money.MerchantId;
import dev.kopek.psp.MerchantPspStore;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PaymentProviders;
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
 * them is in. The scheduled daily run and the admin run are the same run. It reconciles Kopek's configured PSP
 * account first, then every merchant's own PSP account that Kopek has sent payments through, each with its own
 * files and breaks ({@link SettlementAccount}) and matched only against that account's payments.
 */
@Service
@EnableConfigurationProperties(SettlementProperties.class)
public class SettlementReconciliation {

    private static final Logger log = LoggerFactory.getLogger(SettlementReconciliation.class);
    /** Merchants' own accounts reconciled in one run, at most (the rest are logged, and wait for a later run). */
    static final int MAX_ACCOUNTS = 1_000;

    private final PaymentProvider psp;
    private final PaymentProviders psps;
    private final MerchantPspStore merchantPsps;
    private final SettlementFiles files;
    private final BreakMatcher matcher;
    private final UnknownChargeResolver resolver;
    private final ReconBreaks breaks;
    private final SettlementProperties properties;
    private final Clock clock;

    SettlementReconciliation(
            PaymentProvider psp,
            PaymentProviders psps,
            MerchantPspStore merchantPsps,
            SettlementFiles files,
            BreakMatcher matcher,
            UnknownChargeResolver resolver,
            ReconBreaks breaks,
            SettlementProperties properties,
            Clock clock) {
        this.psp = psp;
        this.psps = psps;
        this.merchantPsps = merchantPsps;
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
        List<PassSummary> passes = new ArrayList<>();
        RunResult.FileUnavailable unavailable = runAccount(SettlementAccount.configured(psp), date, trigger, passes);
        if (unavailable != null) {
            return unavailable;
        }
        List<RunResult.AccountRun> accounts = new ArrayList<>();
        List<MerchantId> merchants = merchantPsps.withOwnAccountPayments(MAX_ACCOUNTS + 1);
        if (merchants.size() > MAX_ACCOUNTS) {
            log.error(
                    "settlement: more than {} merchants' own PSP accounts; the first {} are reconciled this run",
                    MAX_ACCOUNTS,
                    MAX_ACCOUNTS);
        }
        for (MerchantId merchant : merchants.subList(0, Math.min(MAX_ACCOUNTS, merchants.size()))) {
            accounts.add(runMerchant(merchant, date, trigger));
        }
        return new RunResult.Completed(date, passes, accounts);
    }

    private RunResult.AccountRun runMerchant(MerchantId merchant, LocalDate date, Trigger trigger) {
        SettlementAccount account;
        try {
            PaymentProvider own = psps.forMerchant(merchant);
            if (own == psp) {
                return new RunResult.AccountRun(
                        psp.name() + ":" + merchant,
                        List.of(),
                        "the merchant's setting names no account of its own any more");
            }
            account = SettlementAccount.merchants(merchant, own);
        } catch (RuntimeException e) {
            log.error("settlement: the PSP account of {} could not be opened", merchant, e);
            return new RunResult.AccountRun("?:" + merchant, List.of(), "its PSP credentials could not be opened");
        }
        List<PassSummary> passes = new ArrayList<>();
        RunResult.FileUnavailable unavailable = runAccount(account, date, trigger, passes);
        return new RunResult.AccountRun(
                account.provider(),
                unavailable == null ? passes : List.of(),
                unavailable == null ? null : "the file of " + unavailable.date() + ": " + unavailable.reason());
    }

    /** Loads and matches one account's files; answers which file could not be had and why, or null when all ran. */
    private RunResult.FileUnavailable runAccount(
            SettlementAccount account, LocalDate date, Trigger trigger, List<PassSummary> passes) {
        List<LocalDate> dates = new ArrayList<>();
        for (int back = properties.boundaryDays(); back >= 0; back--) {
            dates.add(date.minusDays(back));
        }
        // Every file first: the re-check of an earlier day needs the later file to see a row that crossed midnight.
        for (LocalDate day : dates) {
            try {
                SettlementReport report = account.psp().settlementReport(day);
                if (!report.date().equals(day)
                        || !report.provider().equals(account.psp().name())) {
                    throw new IllegalStateException("asked " + account.psp().name() + " for " + day + ", got "
                            + report.provider() + " " + report.date());
                }
                files.load(new SettlementReport(account.provider(), day, report.raw(), report.rows()));
            } catch (RuntimeException e) {
                log.error("settlement: the {} file for {} could not be fetched or stored", account.provider(), day, e);
                return new RunResult.FileUnavailable(
                        day, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
            }
        }
        for (LocalDate day : dates) {
            PassSummary pass = matcher.pass(account, day, trigger, !day.equals(date));
            int resolved = resolver.resolve(account, day);
            if (resolved > 0) {
                breaks.countResolved(pass.runId(), resolved);
                pass = pass.withResolved(resolved);
            }
            passes.add(pass);
        }
        return null;
    }
}
