package dev.kopek.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.reconciliation.StuckAttemptReconciler;
import dev.kopek.simulator.AcquirerSimulator;
import dev.kopek.simulator.SettlementDiscrepancies;
import dev.kopek.support.Api;
import dev.kopek.support.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What an operator finds on a busy day, made through the real API, simulator and reconciler: a captured payment, one
 * parked for manual review (the PSP never charged and its key window closed), and a settlement break reported on
 * the second run (the PSP's file misses a charge Kopek captured).
 */
final class ConsoleScenario {

    final String reference = Api.unique("order");
    String paymentId;
    String reviewPaymentId;
    String breakReference;
    LocalDate day;

    private final Api admin;
    private final Api merchant;
    private final MutableClock clock;
    private final AcquirerSimulator simulator;
    private final StuckAttemptReconciler reconciler;
    private final JdbcClient jdbc;

    ConsoleScenario(Api admin, Api merchant, MutableClock clock, AcquirerSimulator simulator,
            StuckAttemptReconciler reconciler, JdbcClient jdbc) {
        this.admin = admin;
        this.merchant = merchant;
        this.clock = clock;
        this.simulator = simulator;
        this.reconciler = reconciler;
        this.jdbc = jdbc;
    }

    ConsoleScenario build() {
        day = freshDay();
        Api.Response paid = merchant.pay(Api.newKey(), Api.payment(reference, 499_000, "RUB", "pm_ok"));
        assertThat(paid.status()).as(paid.body()).isEqualTo(201);
        paymentId = paid.text("id");
        Api.Response lost = merchant.pay(Api.newKey(), Api.payment(Api.unique("order"), 500, "JPY", "pm_ok"));
        breakReference = lost.text("psp_reference");
        Api.Response unknown = merchant.pay(Api.newKey(),
                Api.payment(Api.unique("order"), 12_345, "EUR", "pm_5xx_no_charge"));
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(202);
        reviewPaymentId = unknown.text("id");
        simulator.addSettlementDiscrepancies(day, SettlementDiscrepancies.none().withMissing(breakReference));

        advance(Duration.ofHours(25));
        reconciler.reconcileOnce();
        reconciler.reconcileOnce();
        assertThat(run(day).status()).isEqualTo(200);
        moveTo(day.plusDays(2), LocalTime.of(0, 30));
        assertThat(run(day.plusDays(1)).status()).isEqualTo(200);
        return this;
    }

    private Api.Response run(LocalDate date) {
        return admin.post("/v1/ops/settlements/runs", null, "{\"date\":\"" + date + "\"}");
    }

    /** Noon of a day after everything earlier tests wrote (the database is shared), both clocks moved there. */
    private LocalDate freshDay() {
        OffsetDateTime latest = jdbc.sql("""
                SELECT max(t) FROM (SELECT max(updated_at) AS t FROM payments
                                    UNION ALL SELECT max(updated_at) FROM payment_operations) AS written
                """).query(OffsetDateTime.class).optional().orElse(null);
        Instant from = latest == null || latest.toInstant().isBefore(clock.instant()) ? clock.instant()
                : latest.toInstant();
        LocalDate fresh = LocalDate.ofInstant(from, ZoneOffset.UTC).plusDays(2);
        moveTo(fresh, LocalTime.NOON);
        return fresh;
    }

    private void moveTo(LocalDate date, LocalTime time) {
        advance(Duration.between(clock.instant(), date.atTime(time).toInstant(ZoneOffset.UTC)));
    }

    private void advance(Duration ahead) {
        assertThat(ahead).isPositive();
        clock.advance(ahead);
        simulator.advanceClock(ahead);
    }
}
