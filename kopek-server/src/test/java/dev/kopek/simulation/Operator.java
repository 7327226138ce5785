package dev.kopek.simulation;

import dev.kopek.simulator.AcquirerSimulator;
import dev.kopek.simulator.ChargeRecord;
import dev.kopek.simulator.MovementRecord;
import dev.kopek.support.Api;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The person at the manual-review queue: for every open item of the run, looks the operation up in the PSP's own
 * record (as a person would in the PSP's dashboard) and records the decision through the admin API. A decision
 * Kopek refuses to record leaves the item open forever: that is a finding.
 */
final class Operator {

    private final JdbcClient jdbc;
    private final AcquirerSimulator psp;
    private final Api admin;

    Operator(JdbcClient jdbc, AcquirerSimulator psp, Api admin) {
        this.jdbc = jdbc;
        this.psp = psp;
        this.admin = admin;
    }

    private record Item(UUID id, String subject, String providerKey) {}

    void resolveOpenReviews(List<UUID> merchants, List<World.Finding> findings) {
        List<Item> open = jdbc.sql("""
                SELECT r.id, r.subject,
                       coalesce(p.provider_key, o.provider_key) AS provider_key
                  FROM manual_reviews r
                  LEFT JOIN payments p ON r.subject = 'payment' AND p.id = r.subject_id
                  LEFT JOIN payment_operations o ON r.subject IN ('capture', 'void', 'refund') AND o.id = r.subject_id
                 WHERE r.merchant_id IN (:m) AND r.status = 'OPEN'
                 ORDER BY r.id
                """)
                .param("m", merchants)
                .query((rs, n) ->
                        new Item(rs.getObject("id", UUID.class), rs.getString("subject"), rs.getString("provider_key")))
                .list();
        for (Item item : open) {
            Optional<String> happened = pspReference(item);
            String id = "mrv_" + item.id().toString().replace("-", "");
            Api.Response r = decide(id, decision(item, happened), happened);
            if (r.status() == 400 && r.body().contains("invalid_decision")) {
                // An older Kopek knows only "captured" and "failed".
                r = decide(id, happened.isPresent() ? "captured" : "failed", happened);
            }
            if (r.status() == 409 && r.body().contains("review_not_open")) {
                // The PSP's own answer settled it first (a notification racing the decision): nothing left to decide.
                continue;
            }
            if (r.status() != 200) {
                findings.add(new World.Finding(
                        "L6",
                        "a person cannot resolve the review of a " + item.subject()
                                + " ("
                                + (happened.isPresent() ? "it happened at the PSP" : "nothing happened at the PSP")
                                + "): " + r.status() + " " + r.body()));
            }
        }
    }

    private Api.Response decide(String id, String decision, Optional<String> pspReference) {
        String body = "{\"decision\":\"" + decision + "\""
                + pspReference.map(ref -> ",\"psp_reference\":\"" + ref + "\"").orElse("")
                + ",\"note\":\"decided from the PSP's record\"}";
        return admin.post("/v1/ops/manual-review/" + id + "/resolve", null, body);
    }

    /** What a person reads in the PSP's record: an authorization only, a capture, an operation that happened, or nothing. */
    private String decision(Item item, Optional<String> happened) {
        if (item.subject().equals("exposure") || item.subject().equals("notification")) {
            return "acknowledged";
        }
        if (happened.isEmpty()) {
            return "failed";
        }
        if (item.subject().equals("payment")) {
            boolean authorizedOnly = psp.charges().stream()
                    .anyMatch(c -> c.id().equals(happened.get()) && c.status().equals(ChargeRecord.AUTHORIZED));
            return authorizedOnly ? "authorized" : "captured";
        }
        return "succeeded";
    }

    /** The PSP's id of what happened under the item's key, if anything did. */
    private Optional<String> pspReference(Item item) {
        if (item.providerKey() == null) {
            return Optional.empty();
        }
        if (item.subject().equals("payment")) {
            return psp.charges().stream()
                    .filter(c -> item.providerKey().equals(c.idempotencyKey())
                            && !c.status().equals(ChargeRecord.DECLINED))
                    .map(ChargeRecord::id)
                    .findFirst();
        }
        return psp.movements().stream()
                .filter(m -> item.providerKey().equals(m.idempotencyKey())
                        && m.status().equals("succeeded"))
                .map(MovementRecord::id)
                .findFirst();
    }
}
