package dev.kopek.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PrefixedId;
import dev.kopek.outbox.webhooks.DeliveryWorker;
import dev.kopek.reconciliation.StuckAttemptReconciler;
import dev.kopek.simulator.AcquirerSimulator;
import dev.kopek.simulator.SettlementDiscrepancies;
import dev.kopek.support.Api;
import dev.kopek.support.MutableClock;
import dev.kopek.support.WebhookReceiver;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What an operator finds on a busy day, made through the real API, simulator, reconciler and webhook worker: a
 * captured payment, one parked for manual review (the PSP never charged and its key window closed), a capture parked
 * the same way (the PSP captured, its answer was a 5xx), a settlement break reported on the second run (the PSP's
 * file misses a charge Kopek captured), and the merchant's webhook endpoint disabled after answering 503 for the
 * whole retry window, its deliveries dead. Close it to stop the endpoint's receiver.
 */
final class ConsoleScenario implements AutoCloseable {

    final String reference = Api.unique("order");
    /** The merchant's endpoint: 503 to everything until a test tells it otherwise. */
    final WebhookReceiver receiver = new WebhookReceiver().answerAlways(503);

    String paymentId;
    String reviewPaymentId;
    String capturePaymentId;
    String captureCharge;
    String breakReference;
    String endpointId;
    LocalDate day;

    private final Api admin;
    private final Api merchant;
    private final MutableClock clock;
    private final AcquirerSimulator simulator;
    private final StuckAttemptReconciler reconciler;
    private final JdbcClient jdbc;
    private final DeliveryWorker deliveries;

    ConsoleScenario(
            Api admin,
            Api merchant,
            MutableClock clock,
            AcquirerSimulator simulator,
            StuckAttemptReconciler reconciler,
            JdbcClient jdbc,
            DeliveryWorker deliveries) {
        this.deliveries = deliveries;
        this.admin = admin;
        this.merchant = merchant;
        this.clock = clock;
        this.simulator = simulator;
        this.reconciler = reconciler;
        this.jdbc = jdbc;
    }

    ConsoleScenario build() {
        day = freshDay();
        Api.Response endpoint = merchant.post(
                "/v1/webhook-endpoints",
                Api.newKey(),
                "{\"url\":\"" + receiver.url() + "\",\"event_types\":[\"payment.captured\"]}");
        assertThat(endpoint.status()).as(endpoint.body()).isEqualTo(201);
        endpointId = endpoint.text("id");
        Api.Response paid = merchant.pay(Api.newKey(), Api.payment(reference, 499_000, "RUB", "pm_ok"));
        assertThat(paid.status()).as(paid.body()).isEqualTo(201);
        paymentId = paid.text("id");
        Api.Response lost = merchant.pay(Api.newKey(), Api.payment(Api.unique("order"), 500, "JPY", "pm_ok"));
        breakReference = lost.text("psp_reference");
        Api.Response unknown =
                merchant.pay(Api.newKey(), Api.payment(Api.unique("order"), 12_345, "EUR", "pm_5xx_no_charge"));
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(202);
        reviewPaymentId = unknown.text("id");
        parkACapture();
        simulator.addSettlementDiscrepancies(day, SettlementDiscrepancies.none().withMissing(breakReference));

        advance(Duration.ofHours(25));
        reconciler.reconcileOnce();
        reconciler.reconcileOnce();
        assertThat(run(day).status()).isEqualTo(200);
        moveTo(day.plusDays(2), LocalTime.of(0, 30));
        assertThat(run(day.plusDays(1)).status()).isEqualTo(200);
        failTheEndpointForTheWholeWindow();
        return this;
    }

    /** A manual-capture payment whose capture the PSP made but answered with a 5xx: unknown, then parked. */
    private void parkACapture() {
        Api.Response authorized = merchant.pay(
                Api.newKey(),
                "{\"reference\":\"" + Api.unique("order")
                        + "\",\"amount\":8000,\"currency\":\"EUR\",\"payment_method\":\"pm_ok\","
                        + "\"capture_method\":\"manual\"}");
        assertThat(authorized.status()).as(authorized.body()).isEqualTo(201);
        capturePaymentId = authorized.text("id");
        captureCharge = authorized.text("psp_reference");
        simulator.armFault("capture", captureCharge, "5xx_after_success", 1);
        Api.Response capture =
                merchant.post("/v1/payments/" + capturePaymentId + "/capture", Api.newKey(), "{\"amount\":8000}");
        assertThat(capture.status()).as(capture.body()).isEqualTo(202);
    }

    /** Two hours at a time, as the worker retries, until the endpoint has failed for 72 h and is disabled. */
    private void failTheEndpointForTheWholeWindow() {
        for (int hours = 0; hours <= 80 && !endpointStatus().equals("DISABLED"); hours += 2) {
            for (int pass = 0; pass < 100 && deliveries.deliverDue() > 0; pass++) {
                // again: a pass takes at most a batch
            }
            advance(Duration.ofHours(2));
        }
        assertThat(endpointStatus()).isEqualTo("DISABLED");
        assertThat(receiver.received()).as("the endpoint was tried").isNotEmpty();
    }

    String endpointStatus() {
        return jdbc.sql("SELECT status FROM webhook_endpoints WHERE id = :id")
                .param("id", PrefixedId.parse("we", endpointId).orElseThrow())
                .query(String.class)
                .single();
    }

    @Override
    public void close() {
        receiver.close();
    }

    private Api.Response run(LocalDate date) {
        return admin.post("/v1/ops/settlements/runs", null, "{\"date\":\"" + date + "\"}");
    }

    /** Noon of a day after everything earlier tests wrote (the database is shared), both clocks moved there. */
    private LocalDate freshDay() {
        OffsetDateTime latest =
                jdbc.sql("""
                SELECT max(t) FROM (SELECT max(updated_at) AS t FROM payments
                                    UNION ALL SELECT max(updated_at) FROM payment_operations) AS written
                """).query(OffsetDateTime.class).optional().orElse(null);
        Instant from =
                latest == null || latest.toInstant().isBefore(clock.instant()) ? clock.instant() : latest.toInstant();
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
