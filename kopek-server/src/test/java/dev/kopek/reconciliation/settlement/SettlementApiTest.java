package dev.kopek.reconciliation.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The admin API refuses bad input with problems, and the daily run happens once per day. */
class SettlementApiTest extends SettlementSupport {

    @Autowired
    DailySettlementRun daily;

    @Test
    void badQueriesAreProblemsNamingTheField() {
        assertProblem(admin().get("/v1/ops/recon-breaks?type=lost"), 400, "invalid_query", "type");
        assertProblem(admin().get("/v1/ops/recon-breaks?status=pending"), 400, "invalid_query", "status");
        assertProblem(admin().get("/v1/ops/recon-breaks?date=2026-02-30"), 400, "invalid_query", "date");
        assertProblem(admin().get("/v1/ops/recon-breaks?date=yesterday"), 400, "invalid_query", "date");
        assertProblem(admin().get("/v1/ops/recon-breaks?limit=0"), 400, "invalid_query", "limit");
        assertProblem(admin().get("/v1/ops/recon-breaks?limit=501"), 400, "invalid_query", "limit");
        assertProblem(admin().get("/v1/ops/recon-breaks?limit=ten"), 400, "invalid_query", "limit");
        assertThat(admin().get("/v1/ops/recon-breaks?type=AMOUNT_MISMATCH&status=all&limit=500")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void badRunRequestsAreProblemsAndNothingRuns() {
        long runs = rows("settlement_runs");
        assertProblem(admin().post("/v1/ops/settlements/runs", null, "{}"), 400, "invalid_date", "date");
        assertProblem(
                admin().post("/v1/ops/settlements/runs", null, "{\"date\":20261201}"), 400, "invalid_date", "date");
        assertProblem(
                admin().post("/v1/ops/settlements/runs", null, "{\"date\":\"2026-12-32\"}"),
                400,
                "invalid_date",
                "date");
        assertProblem(
                admin().post("/v1/ops/settlements/runs", null, "{\"date\":\"2026-12-01\",\"force\":true}"),
                400,
                "unknown_field",
                "force");
        assertProblem(admin().post("/v1/ops/settlements/runs", null, "not json"), 400, "invalid_json", null);
        LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
        assertProblem(run(today), 422, "date_not_closed", null);
        assertProblem(
                newMerchant().post("/v1/ops/settlements/runs", null, "{\"date\":\"2026-12-01\"}"),
                401,
                "invalid_admin_token",
                null);
        assertProblem(new Api(baseUri(), null).get("/v1/ops/recon-breaks"), 401, "missing_api_key", null);
        assertThat(rows("settlement_runs")).isEqualTo(runs);
    }

    @Test
    void dailyRunReconcilesYesterdayOncePerDayAcrossInstances() {
        LocalDate day = freshDay();
        moveToDayAfter(day);
        RunResult first = daily.runIfDue().orElseThrow();
        assertThat(first).isInstanceOfSatisfying(RunResult.Completed.class, completed -> {
            assertThat(completed.date()).isEqualTo(day);
            assertThat(completed.passes()).extracting(PassSummary::date).containsExactly(day.minusDays(1), day);
        });
        assertThat(daily.runIfDue()).as("claimed for today already").isEmpty();
    }

    @Test
    void dailyRunIsAuditedWithKopekAsTheActor() {
        LocalDate day = freshDay();
        moveToDayAfter(day);
        daily.runIfDue().orElseThrow();

        var events = jdbc.sql("""
                SELECT actor_kind, actor_id, actor_name, request_id, after ->> 'outcome' AS outcome,
                       jsonb_array_length(after -> 'passes') AS passes
                FROM audit_events WHERE action = 'settlement.run' AND target_type = 'settlement_date'
                                    AND target_id = :day
                """).param("day", day.toString()).query().listOfRows();
        assertThat(events).hasSize(1);
        assertThat(events.getFirst())
                .containsEntry("actor_kind", "system")
                .containsEntry("actor_id", "system:daily-settlement")
                .containsEntry("actor_name", "daily-settlement")
                .containsEntry("outcome", "completed")
                .containsEntry("passes", 2);
        assertThat(events.getFirst().get("request_id")).isNull();
    }

    private static void assertProblem(Api.Response response, int status, String code, String field) {
        assertThat(response.status()).as(response.body()).isEqualTo(status);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        assertThat(response.text("code")).isEqualTo(code);
        if (field != null) {
            assertThat(response.text("field")).isEqualTo(field);
        }
    }
}
