package dev.kopek.reconciliation.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.refunds.Refunds;
import dev.kopek.simulator.MovementRecord;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.StreamSupport;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Steps shared by the settlement tests. Every test works on a day of its own: the database is shared by all
 * integration tests, so each test first moves both clocks (Kopek's and the simulator's, together) to noon of a day
 * after everything any earlier test wrote. The settlement date of a movement is the PSP's: the UTC date of the
 * simulator's movement timestamp, which tests check against the day they chose.
 */
abstract class SettlementSupport extends IntegrationTest {

    @Autowired
    protected SettlementReconciliation settlement;

    @Autowired
    protected Refunds refunds;

    /** Noon of a day no earlier test has touched (nor the day before it); both clocks are moved there. */
    protected LocalDate freshDay() {
        OffsetDateTime latest =
                jdbc.sql("""
                SELECT max(t) FROM (SELECT max(updated_at) AS t FROM payments
                                    UNION ALL SELECT max(updated_at) FROM payment_operations) AS written
                """).query(OffsetDateTime.class).optional().orElse(null);
        Instant from =
                latest == null || latest.toInstant().isBefore(clock.instant()) ? clock.instant() : latest.toInstant();
        LocalDate day = LocalDate.ofInstant(from, ZoneOffset.UTC).plusDays(2);
        moveTo(day, LocalTime.NOON);
        return day;
    }

    /** Moves Kopek's clock and the simulator's by the same amount, so they keep agreeing. */
    protected void moveTo(LocalDate day, LocalTime time) {
        Duration ahead = Duration.between(clock.instant(), day.atTime(time).toInstant(ZoneOffset.UTC));
        assertThat(ahead).as("clocks only move forward").isPositive();
        clock.advance(ahead);
        SIMULATOR.advanceClock(ahead);
    }

    /** Half past midnight after {@code day}: its file is final and can be run. */
    protected void moveToDayAfter(LocalDate day) {
        moveTo(day.plusDays(1), LocalTime.of(0, 30));
    }

    protected static JsonNode pay(Api api, long amount, String method) {
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), amount, "EUR", method));
        assertThat(paid.status()).as(paid.body()).isEqualTo(201);
        return paid.json();
    }

    protected static String charge(JsonNode payment) {
        String reference = payment.get("psp_reference").asString();
        assertThat(reference).startsWith("ch_");
        return reference;
    }

    /** The value date the PSP gives this reference's movements: the UTC date of their own timestamps. */
    protected static LocalDate settlementDateOf(String pspReference) {
        List<MovementRecord> movements = SIMULATOR.movements().stream()
                .filter(m -> m.id().equals(pspReference) && m.succeeded())
                .toList();
        assertThat(movements).as("movements of " + pspReference).isNotEmpty();
        List<LocalDate> dates = movements.stream()
                .map(m -> LocalDate.ofInstant(m.createdAt(), ZoneOffset.UTC))
                .distinct()
                .toList();
        assertThat(dates).as("value dates of " + pspReference).hasSize(1);
        return dates.getFirst();
    }

    protected Api.Response run(LocalDate date) {
        return admin().post("/v1/ops/settlements/runs", null, "{\"date\":\"" + date + "\"}");
    }

    /** Runs the date through the admin API: a re-check pass of the day before, then the date's own pass. */
    protected JsonNode runOk(LocalDate date) {
        Api.Response ran = run(date);
        assertThat(ran.status()).as(ran.body()).isEqualTo(200);
        JsonNode passes = ran.json().get("passes");
        assertThat(passes.size()).isEqualTo(2);
        assertThat(passes.get(0).get("settlement_date").asString())
                .isEqualTo(date.minusDays(1).toString());
        assertThat(passes.get(0).get("recheck").asBoolean()).isTrue();
        assertThat(passes.get(1).get("settlement_date").asString()).isEqualTo(date.toString());
        assertThat(passes.get(1).get("recheck").asBoolean()).isFalse();
        return ran.json();
    }

    /** The pass of this date in a run's answer. */
    protected static JsonNode passOf(JsonNode run, LocalDate date) {
        return StreamSupport.stream(run.get("passes").spliterator(), false)
                .filter(p -> p.get("settlement_date").asString().equals(date.toString()))
                .findFirst()
                .orElseThrow();
    }

    protected List<JsonNode> breaks(String query) {
        Api.Response listed = admin().get("/v1/ops/recon-breaks?" + query);
        assertThat(listed.status()).as(listed.body()).isEqualTo(200);
        return StreamSupport.stream(listed.json().get("data").spliterator(), false)
                .toList();
    }

    protected List<JsonNode> breaksOf(LocalDate date, String status) {
        return breaks("date=" + date + "&status=" + status);
    }

    protected static List<String> references(List<JsonNode> breaks) {
        return breaks.stream().map(b -> b.get("psp_reference").asString()).toList();
    }

    protected static JsonNode only(List<JsonNode> breaks, String pspReference) {
        List<JsonNode> matching = breaks.stream()
                .filter(b -> b.get("psp_reference").asString().equals(pspReference))
                .toList();
        assertThat(matching).as("breaks of " + pspReference).hasSize(1);
        return matching.getFirst();
    }
}
