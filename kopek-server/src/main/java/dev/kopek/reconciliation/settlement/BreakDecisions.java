package dev.kopek.reconciliation.settlement;

import dev.kopek.audit.Actor;
import dev.kopek.audit.AuditTrail;
import dev.kopek.money.PrefixedId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * A person's decision on a reported break, from the admin API or the operator console alike: the change and its
 * audit event ({@code recon_break.acknowledged} / {@code recon_break.resolved}) commit together. Who decided is the
 * authenticated {@link Actor}, never a name from a request body.
 */
@Service
public class BreakDecisions {

    private final ReconBreaks breaks;
    private final AuditTrail audit;

    BreakDecisions(ReconBreaks breaks, AuditTrail audit) {
        this.breaks = breaks;
        this.audit = audit;
    }

    /** Seen and being worked on: the break stays open and later passes still match it. */
    public ReconBreaks.Decision acknowledge(Actor actor, UUID id, String note) {
        return audit.inTransaction(status -> recorded(
                actor,
                "recon_break.acknowledged",
                id,
                note,
                breaks.find(id),
                breaks.acknowledge(id, actor.name(), note)));
    }

    /** Settled outside Kopek's automatic paths; the note says how. The break is closed. */
    public ReconBreaks.Decision resolve(Actor actor, UUID id, String note) {
        return audit.inTransaction(status -> recorded(
                actor, "recon_break.resolved", id, note, breaks.find(id), breaks.resolve(id, actor.name(), note)));
    }

    private ReconBreaks.Decision recorded(
            Actor actor,
            String action,
            UUID id,
            String note,
            Optional<ReconBreak> before,
            ReconBreaks.Decision decision) {
        if (decision instanceof ReconBreaks.Decision.Done done) {
            Map<String, Object> after = summary(done.reconBreak());
            after.put("note", note);
            audit.record(
                    actor,
                    action,
                    "recon_break",
                    PrefixedId.format("brk", id),
                    before.map(BreakDecisions::summary).orElse(null),
                    after);
        }
        return decision;
    }

    private static Map<String, Object> summary(ReconBreak b) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("status", b.status().apiName());
        json.put("type", b.type().apiName());
        json.put("settlement_date", b.settlementDate().toString());
        json.put("psp_reference", b.pspReference());
        json.put("resolution", b.resolution());
        return json;
    }
}
