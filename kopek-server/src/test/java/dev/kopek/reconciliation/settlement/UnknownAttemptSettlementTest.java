package dev.kopek.reconciliation.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalTime;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A charge on the PSP's file that Kopek holds as unknown settles that attempt through the reconciler's fenced
 * take-over (a lookup by key), and never charges again.
 */
class UnknownAttemptSettlementTest extends SettlementSupport {

    @Test
    void chargeOfAnUnknownAttemptSettlesItAsCapturedAndResolvesTheBreak() {
        LocalDate day = freshDay();
        Api api = newMerchant();
        String reference = newReference();
        Api.Response unknown = api.pay(Api.newKey(), Api.payment(reference, 6_100, "EUR", "pm_5xx_after_charge"));
        assertThat(unknown.status()).isEqualTo(202);
        assertThat(unknown.text("status")).isEqualTo("processing");
        String chargeId = recordsAtPsp(reference).getFirst().id();
        assertThat(settlementDateOf(chargeId)).isEqualTo(day);

        moveToDayAfter(day);
        JsonNode pass = passOf(runOk(day), day);

        assertThat(pass.get("new_candidates").asInt()).isEqualTo(1);
        assertThat(pass.get("resolved").asInt()).isEqualTo(1);
        JsonNode resolved = only(breaksOf(day, "resolved"), chargeId);
        assertThat(resolved.get("type").asString()).isEqualTo("missing_internal");
        assertThat(resolved.get("kopek").get("payment_id").asString()).isEqualTo(unknown.text("id"));
        assertThat(resolved.get("reported_at").isNull()).isTrue();
        JsonNode payment = api.get("/v1/payments/" + unknown.text("id")).json();
        assertThat(payment.get("status").asString()).isEqualTo("captured");
        assertThat(payment.get("psp_reference").asString()).isEqualTo(chargeId);
        assertThat(chargesAtPsp(reference)).isEqualTo(1);

        moveToDayAfter(day.plusDays(1));
        assertThat(passOf(runOk(day.plusDays(1)), day).get("breaks_seen").asInt())
                .as("matched now")
                .isZero();
        assertThat(breaksOf(day, "open")).isEmpty();
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    @Test
    void unknownAttemptStillInsideItsGraceStaysOpenAndIsResolvedByALaterPass() {
        LocalDate day = freshDay();
        moveTo(day, LocalTime.of(23, 59, 50));
        Api api = newMerchant();
        String reference = newReference();
        Api.Response unknown = api.pay(Api.newKey(), Api.payment(reference, 990, "EUR", "pm_5xx_after_charge"));
        assertThat(unknown.status()).isEqualTo(202);
        String chargeId = recordsAtPsp(reference).getFirst().id();
        assertThat(settlementDateOf(chargeId)).isEqualTo(day);

        moveTo(day.plusDays(1), LocalTime.of(0, 0, 5));
        JsonNode early = passOf(runOk(day), day);
        assertThat(early.get("resolved").asInt())
                .as("the grace has not run out: no take-over yet")
                .isZero();
        JsonNode open = only(breaksOf(day, "open"), chargeId);
        assertThat(open.get("type").asString()).isEqualTo("missing_internal");
        assertThat(open.get("kopek").get("payment_id").asString())
                .as("attributed by the PSP's provider key")
                .isEqualTo(unknown.text("id"));
        assertThat(open.get("kopek").get("status").asString()).isEqualTo("unknown");
        assertThat(api.get("/v1/payments/" + unknown.text("id")).text("status")).isEqualTo("processing");

        clock.advance(Duration.ofSeconds(31));
        SIMULATOR.advanceClock(Duration.ofSeconds(31));
        JsonNode later = passOf(runOk(day), day);
        assertThat(later.get("resolved").asInt()).isEqualTo(1);
        assertThat(only(breaksOf(day, "resolved"), chargeId).get("seen_count").asInt())
                .isEqualTo(2);
        assertThat(api.get("/v1/payments/" + unknown.text("id")).text("status")).isEqualTo("captured");
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }
}
