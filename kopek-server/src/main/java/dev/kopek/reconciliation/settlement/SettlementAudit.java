package dev.kopek.reconciliation.settlement;

import dev.kopek.audit.Actor;
import dev.kopek.audit.AuditTrail;
import dev.kopek.money.PrefixedId;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * Records every settlement run in the audit trail, whoever started it: an admin through the API or Kopek's daily
 * schedule ({@link Actor#system}). A run fetches the PSP's file and commits pass by pass, so it cannot share one
 * transaction with its event (L3: no network call inside a transaction); the event is written right after, with
 * what the run did. A date that is not closed yet did nothing and is not recorded.
 */
@Component
public class SettlementAudit {

    private final AuditTrail audit;

    SettlementAudit(AuditTrail audit) {
        this.audit = audit;
    }

    public void recordRun(Actor actor, LocalDate day, RunResult result) {
        Map<String, Object> after = new LinkedHashMap<>();
        switch (result) {
            case RunResult.Completed completed -> {
                after.put("outcome", "completed");
                after.put(
                        "passes",
                        completed.passes().stream().map(SettlementAudit::pass).toList());
                after.put(
                        "accounts",
                        completed.accounts().stream()
                                .map(SettlementAudit::account)
                                .toList());
            }
            case RunResult.FileUnavailable failed -> after.put("outcome", "file_unavailable");
            case RunResult.DateNotClosed notClosed -> {
                return;
            }
        }
        audit.inTransaction(status -> {
            audit.record(actor, "settlement.run", "settlement_date", day.toString(), null, after);
            return null;
        });
    }

    /** A merchant's own PSP account in a run, as the admin API shows it and the audit trail keeps it. */
    public static Map<String, Object> account(RunResult.AccountRun account) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("provider", account.provider());
        json.put("passes", account.passes().stream().map(SettlementAudit::pass).toList());
        json.put("unavailable", account.unavailable());
        return json;
    }

    /** One pass as the admin API shows it and the audit trail keeps it. */
    public static Map<String, Object> pass(PassSummary pass) {
        Map<String, Object> file = new LinkedHashMap<>();
        file.put("id", PrefixedId.format("sfile", pass.file().id()));
        file.put("version", pass.file().version());
        file.put("sha256", pass.file().sha256());
        file.put("rows", pass.file().rowCount());
        file.put("loaded_at", pass.file().loadedAt().toString());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", PrefixedId.format("srun", pass.runId()));
        json.put("settlement_date", pass.date().toString());
        json.put("recheck", pass.recheck());
        json.put("file", file);
        json.put("breaks_seen", pass.seen());
        json.put("new_candidates", pass.newCandidates());
        json.put("reported", pass.reported());
        json.put("cleared", pass.cleared());
        json.put("resolved", pass.resolved());
        return json;
    }
}
