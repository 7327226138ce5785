package dev.kopek.reconciliation.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.simulator.SettlementDiscrepancies;
import dev.kopek.simulator.SettlementRow;
import dev.kopek.support.Api;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** Each kind of difference between the PSP's file and Kopek is found, and reported only on its second sighting. */
class SettlementBreaksTest extends SettlementSupport {

    @Autowired
    MeterRegistry meters;

    @Test
    void missingExtraAndWrongRowsBecomeCandidatesAndAreReportedOnTheSecondConsecutiveRun() {
        LocalDate day = freshDay();
        Api api = newMerchant();
        String missing = charge(pay(api, 1_000, "pm_ok"));
        String wrong = charge(pay(api, 2_000, "pm_ok"));
        JsonNode refunded = pay(api, 3_000, "pm_ok");
        Api.Response refund = api.post(
                "/v1/payments/" + refunded.get("id").asString() + "/refunds", Api.newKey(), "{\"amount\":1000}");
        assertThat(refund.status()).isEqualTo(202);
        reconciler.reconcileOnce();
        assertThat(api.get("/v1/refunds/" + refund.text("id")).text("status")).isEqualTo("succeeded");
        String capture = captureOfManualPayment(api);
        assertThat(List.of(settlementDateOf(missing), settlementDateOf(wrong), settlementDateOf(capture)))
                .containsOnly(day);

        String phantom = "ch_phantom" + System.nanoTime();
        SIMULATOR.addSettlementDiscrepancies(
                day,
                SettlementDiscrepancies.none()
                        .withMissing(missing)
                        .withWrongAmount(wrong, 2_500)
                        .withExtra(new SettlementRow(phantom, "charge", 999, "EUR", day)));

        moveToDayAfter(day);
        JsonNode first = passOf(runOk(day), day);
        assertThat(first.get("new_candidates").asInt()).isEqualTo(3);
        assertThat(first.get("reported").asInt()).isZero();
        List<JsonNode> candidates = breaksOf(day, "open");
        assertThat(references(candidates)).containsExactlyInAnyOrder(missing, wrong, phantom);
        assertThat(candidates)
                .allSatisfy(b -> assertThat(b.get("status").asString()).isEqualTo("candidate"));
        assertThat(breaksOf(day, "reported")).isEmpty();

        moveToDayAfter(day.plusDays(1));
        JsonNode run = runOk(day.plusDays(1));
        assertThat(passOf(run, day).get("reported").asInt()).isEqualTo(3);
        assertThat(passOf(run, day.plusDays(1)).get("breaks_seen").asInt()).isZero();
        List<JsonNode> reported = breaksOf(day, "reported");
        assertThat(reported)
                .allSatisfy(b -> assertThat(b.get("seen_count").asInt()).isEqualTo(2));

        JsonNode atPsp = only(reported, missing);
        assertThat(atPsp.get("type").asString()).isEqualTo("missing_at_psp");
        assertThat(atPsp.get("psp").isNull()).isTrue();
        assertThat(atPsp.get("kopek").get("kind").asString()).isEqualTo("payment");
        assertThat(atPsp.get("kopek").get("amount").asLong()).isEqualTo(1_000);
        JsonNode amount = only(reported, wrong);
        assertThat(amount.get("type").asString()).isEqualTo("amount_mismatch");
        assertThat(amount.get("psp").get("amount").asLong()).isEqualTo(2_500);
        assertThat(amount.get("kopek").get("amount").asLong()).isEqualTo(2_000);
        JsonNode internal = only(reported, phantom);
        assertThat(internal.get("type").asString()).isEqualTo("missing_internal");
        assertThat(internal.get("kopek").isNull()).isTrue();
        assertThat(internal.get("psp").get("amount").asLong()).isEqualTo(999);

        assertThat(references(breaks("type=missing_at_psp&status=reported&date=" + day)))
                .containsExactly(missing);
        double gauge = meters.get("kopek.settlement.breaks.open")
                .tag("type", "amount_mismatch")
                .tag("status", "reported")
                .gauge()
                .value();
        assertThat(gauge).isGreaterThanOrEqualTo(1).isEqualTo((double)
                jdbc.sql("SELECT count(*) FROM recon_breaks WHERE type = 'AMOUNT_MISMATCH' AND status = 'REPORTED'")
                        .query(Long.class)
                        .single());
    }

    @Test
    void pspSettlingWhatKopekHoldsAsDeclinedOrAsAnotherMovementIsAStatusMismatch() {
        LocalDate day = freshDay();
        Api api = newMerchant();
        Api.Response declined = api.pay(Api.newKey(), Api.payment(newReference(), 1_500, "EUR", "pm_declined"));
        assertThat(declined.text("status")).isEqualTo("declined");
        String declinedCharge = declined.text("psp_reference");
        assertThat(declinedCharge).startsWith("ch_");
        String paid = charge(pay(api, 4_000, "pm_ok"));
        SIMULATOR.addSettlementDiscrepancies(
                day,
                SettlementDiscrepancies.none()
                        .withExtra(new SettlementRow(declinedCharge, "charge", 1_500, "EUR", day))
                        .withExtra(new SettlementRow(paid, "refund", 4_000, "EUR", day)));

        moveToDayAfter(day);
        runOk(day);

        List<JsonNode> open = breaksOf(day, "open");
        assertThat(open).hasSize(2).allSatisfy(b -> {
            assertThat(b.get("type").asString()).isEqualTo("status_mismatch");
            assertThat(b.get("status").asString()).isEqualTo("candidate");
        });
        JsonNode settledDecline = only(open, declinedCharge);
        assertThat(settledDecline.get("movement").asString()).isEqualTo("charge");
        assertThat(settledDecline.get("kopek").get("status").asString()).isEqualTo("declined");
        JsonNode otherType = only(open, paid);
        assertThat(otherType.get("movement").asString()).isEqualTo("refund");
        assertThat(otherType.get("kopek").get("type").asString()).isEqualTo("charge");
        assertThat(otherType.get("kopek").get("status").asString()).isEqualTo("captured");
    }

    /** Authorizes 5,000 and captures 3,000: the authorization never settles, the capture does. */
    private static String captureOfManualPayment(Api api) {
        Api.Response authorized = api.pay(
                Api.newKey(),
                "{\"reference\":\"" + newReference() + "\",\"amount\":5000,"
                        + "\"currency\":\"EUR\",\"payment_method\":\"pm_ok\",\"capture_method\":\"manual\"}");
        assertThat(authorized.text("status")).isEqualTo("authorized");
        String chargeId = authorized.text("psp_reference");
        Api.Response captured =
                api.post("/v1/payments/" + authorized.text("id") + "/capture", Api.newKey(), "{\"amount\":3000}");
        assertThat(captured.status()).as(captured.body()).isEqualTo(200);
        String capture = SIMULATOR.movements(chargeId).stream()
                .filter(m -> m.type().equals("capture"))
                .findFirst()
                .orElseThrow()
                .id();
        assertThat(capture).startsWith("cap_");
        return capture;
    }
}
