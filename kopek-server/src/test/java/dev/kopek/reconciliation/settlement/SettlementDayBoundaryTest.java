package dev.kopek.reconciliation.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.simulator.SettlementDiscrepancies;
import dev.kopek.support.Api;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A movement the PSP puts on the next day's file is a candidate for one pass, never a reported break. */
class SettlementDayBoundaryTest extends SettlementSupport {

    @Test
    void rowOnTheNextDaysFileIsOnlyACandidateAndClearsWhenTheNextDayIsRun() {
        LocalDate day = freshDay();
        Api api = newMerchant();
        String late = charge(pay(api, 2_300, "pm_ok"));
        String onTime = charge(pay(api, 700, "pm_ok"));
        assertThat(settlementDateOf(late)).isEqualTo(day);
        SIMULATOR.addSettlementDiscrepancies(day, SettlementDiscrepancies.none().withNextDay(late));

        moveToDayAfter(day);
        JsonNode first = passOf(runOk(day), day);
        assertThat(first.get("new_candidates").asInt()).isEqualTo(1);
        JsonNode candidate = only(breaksOf(day, "open"), late);
        assertThat(candidate.get("type").asString()).isEqualTo("missing_at_psp");
        assertThat(candidate.get("status").asString()).isEqualTo("candidate");

        // The same date run again before the next day's file is in: seen twice, still not reported.
        assertThat(passOf(runOk(day), day).get("reported").asInt()).isZero();
        JsonNode again = only(breaksOf(day, "open"), late);
        assertThat(again.get("seen_count").asInt()).isEqualTo(2);
        assertThat(again.get("status").asString()).isEqualTo("candidate");

        moveToDayAfter(day.plusDays(1));
        JsonNode run = runOk(day.plusDays(1));
        assertThat(passOf(run, day).get("cleared").asInt()).isEqualTo(1);
        assertThat(passOf(run, day).get("reported").asInt()).isZero();
        assertThat(passOf(run, day.plusDays(1)).get("breaks_seen").asInt())
                .as("matched on its own day's file")
                .isZero();

        JsonNode cleared = only(breaksOf(day, "all"), late);
        assertThat(cleared.get("status").asString()).isEqualTo("cleared");
        assertThat(cleared.get("reported_at").isNull()).isTrue();
        assertThat(cleared.get("closed_at").isNull()).isFalse();
        assertThat(breaksOf(day, "open")).isEmpty();
        assertThat(breaksOf(day.plusDays(1), "all")).isEmpty();
        List<String> everything = references(breaks("status=all&limit=500"));
        assertThat(everything).doesNotContain(onTime);
    }
}
