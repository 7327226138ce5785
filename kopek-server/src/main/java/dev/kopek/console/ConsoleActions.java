package dev.kopek.console;

import dev.kopek.audit.Actor;
import dev.kopek.audit.AuditTrail;
import dev.kopek.money.PrefixedId;
import dev.kopek.outbox.webhooks.WebhookEndpoints;
import dev.kopek.reconciliation.ManualReview;
import dev.kopek.reconciliation.ManualReviews;
import dev.kopek.reconciliation.settlement.BreakDecisions;
import dev.kopek.reconciliation.settlement.ReconBreaks;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * The console's actions. Each calls the service the admin API calls (no second implementation of a decision) and
 * records it in the audit trail in the same transaction, as the admin identity logged in to the console; the
 * result is a sentence for the page.
 */
@Service
public class ConsoleActions {

    /** What an action did, said for a person; {@code ok} false means nothing changed. */
    public record Outcome(boolean ok, String message) {}

    private final ManualReviews reviews;
    private final BreakDecisions breaks;
    private final WebhookEndpoints endpoints;
    private final AuditTrail audit;

    ConsoleActions(ManualReviews reviews, BreakDecisions breaks, WebhookEndpoints endpoints, AuditTrail audit) {
        this.reviews = reviews;
        this.breaks = breaks;
        this.endpoints = endpoints;
        this.audit = audit;
    }

    public Outcome resolveReview(Actor actor, UUID reviewId, String decision, String pspReference, String note) {
        String target = PrefixedId.format("mrv", reviewId);
        var chosen = new ManualReviews.Decision(decision, pspReference, null);
        ManualReviews.Resolution resolution = audit.inTransaction(status -> {
            var result = reviews.resolve(reviewId, chosen, actor.name(), note);
            if (result instanceof ManualReviews.Resolution.Resolved r) {
                audit.record(
                        actor,
                        "manual_review.resolved",
                        "manual_review",
                        target,
                        before(r.review()),
                        after(r.review()));
            }
            return result;
        });
        return switch (resolution) {
            case ManualReviews.Resolution.Resolved r ->
                new Outcome(true, "Review " + target + " resolved as " + decision + ".");
            case ManualReviews.Resolution.NotOpen n ->
                new Outcome(false, "Review " + target + " is already resolved; nothing changed.");
            case ManualReviews.Resolution.NotFound n -> new Outcome(false, "No review " + target + ".");
            case ManualReviews.Resolution.NotApplicable na ->
                new Outcome(false, "Review " + target + ": " + na.detail() + " Nothing changed.");
        };
    }

    public Outcome acknowledgeBreak(Actor actor, UUID breakId, String note) {
        return decided(breakId, breaks.acknowledge(actor, breakId, note), "acknowledged");
    }

    public Outcome resolveBreak(Actor actor, UUID breakId, String note) {
        return decided(breakId, breaks.resolve(actor, breakId, note), "resolved");
    }

    private static Outcome decided(UUID breakId, ReconBreaks.Decision decision, String verb) {
        String target = PrefixedId.format("brk", breakId);
        return switch (decision) {
            case ReconBreaks.Decision.Done done -> new Outcome(true, "Break " + target + " " + verb + ".");
            case ReconBreaks.Decision.NotOpen closed ->
                new Outcome(
                        false,
                        "Break " + target + " is already "
                                + closed.reconBreak().status().apiName() + "; nothing changed.");
            case ReconBreaks.Decision.NotFound missing -> new Outcome(false, "No break " + target + ".");
        };
    }

    public Outcome reenableEndpoint(Actor actor, UUID endpointId, boolean redeliver) {
        String target = PrefixedId.format("we", endpointId);
        return audit.inTransaction(status -> endpoints
                .reenable(endpointId, redeliver)
                .map(done -> {
                    Map<String, Object> after = new LinkedHashMap<>();
                    after.put("disabled", false);
                    after.put("redelivered", done.redelivered());
                    audit.record(
                            actor,
                            "webhook_endpoint.reenabled",
                            "webhook_endpoint",
                            target,
                            Map.of("disabled", true),
                            after);
                    return new Outcome(
                            true,
                            "Endpoint " + target + " is enabled again"
                                    + (redeliver ? "; " + done.redelivered() + " dead deliveries queued." : "."));
                })
                .orElseGet(() -> new Outcome(false, "Endpoint " + target + " is not disabled; nothing changed.")));
    }

    private static Map<String, Object> before(ManualReview review) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("status", "open");
        json.put("subject", review.subject());
        json.put(
                "payment_id", review.payment() == null ? null : review.payment().toString());
        return json;
    }

    private static Map<String, Object> after(ManualReview review) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("status", review.status().toLowerCase(Locale.ROOT));
        json.put("subject", review.subject());
        json.put(
                "payment_id", review.payment() == null ? null : review.payment().toString());
        json.put("resolution", review.resolution());
        json.put("psp_reference", review.pspReference());
        json.put("resolved_by", review.resolvedBy());
        json.put("note", review.note());
        return json;
    }
}
