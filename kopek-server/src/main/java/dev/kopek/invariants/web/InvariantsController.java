package dev.kopek.invariants.web;

import dev.kopek.invariants.Invariants;
import dev.kopek.money.PrefixedId;
import dev.kopek.platform.Audience;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/ops/invariants}: what the production audit found, per check, with its coverage, for admins and for
 * the runs that must end with zero violations (the crash run and the high-availability run read it).
 */
@RestController
@Audience(Audience.Kind.ADMIN)
class InvariantsController {

    private static final int RECENT = 50;

    private final Invariants invariants;

    InvariantsController(Invariants invariants) {
        this.invariants = invariants;
    }

    @GetMapping("/v1/ops/invariants")
    Map<String, Object> status() {
        List<Invariants.CheckStatus> checks = invariants.checks();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("object", "invariants");
        body.put(
                "violations",
                checks.stream().mapToLong(Invariants.CheckStatus::violations).sum());
        body.put("checks", checks.stream().map(InvariantsController::check).toList());
        body.put(
                "recent",
                invariants.current(RECENT).stream()
                        .map(InvariantsController::violation)
                        .toList());
        return body;
    }

    private static Map<String, Object> check(Invariants.CheckStatus c) {
        Invariants.Cursor cursor = c.cursor();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("check", c.name());
        json.put("law", c.law());
        json.put("violations", c.violations());
        json.put("last_run_at", time(cursor.lastRunAt()));
        json.put("last_run_rows", cursor.lastRunRows());
        json.put("last_run_found", cursor.lastRunFound());
        json.put("pass", cursor.pass());
        json.put("pass_started_at", time(cursor.passStartedAt()));
        json.put("pass_rows", cursor.passRows());
        json.put("total_rows", cursor.totalRows());
        json.put("coverage_percent", c.coveragePercent());
        json.put("position", cursor.position());
        json.put("last_pass_started_at", time(cursor.lastPassStartedAt()));
        json.put("last_pass_finished_at", time(cursor.lastPassFinishedAt()));
        json.put("last_pass_rows", cursor.lastPassRows());
        return json;
    }

    private static Map<String, Object> violation(Invariants.Violation v) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", PrefixedId.format("inv", v.id()));
        json.put("check", v.check());
        json.put("subject", v.subject());
        json.put("merchant_id", id("mer", v.merchant()));
        json.put("payment_id", id("pay", v.payment()));
        json.put("detail", v.detail());
        json.put("first_seen_at", time(v.firstSeenAt()));
        json.put("last_seen_at", time(v.lastSeenAt()));
        return json;
    }

    private static String id(String prefix, UUID id) {
        return id == null ? null : PrefixedId.format(prefix, id);
    }

    private static String time(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
