package dev.kopek.console;

import dev.kopek.money.PrefixedId;
import dev.kopek.outbox.webhooks.WebhookEndpoints;
import dev.kopek.reconciliation.ManualReviews;
import dev.kopek.reconciliation.settlement.ReconBreaks;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The console's actions. Each calls the service the admin API calls (no second implementation of a decision) and
 * records the operator's action in the same transaction; the result is a sentence for the page.
 */
@Service
public class ConsoleActions {

    /** What an action did, said for a person; {@code ok} false means nothing changed. */
    public record Outcome(boolean ok, String message) {
    }

    private final ManualReviews reviews;
    private final ReconBreaks breaks;
    private final WebhookEndpoints endpoints;
    private final ActionLog log;

    ConsoleActions(ManualReviews reviews, ReconBreaks breaks, WebhookEndpoints endpoints, ActionLog log) {
        this.reviews = reviews;
        this.breaks = breaks;
        this.endpoints = endpoints;
        this.log = log;
    }

    @Transactional
    public Outcome resolveReview(Operator operator, UUID reviewId, String decision, String pspReference,
            String note) {
        String target = PrefixedId.format("mrv", reviewId);
        var chosen = new ManualReviews.Decision(decision, pspReference, null);
        return switch (reviews.resolve(reviewId, chosen, operator.name(), note)) {
            case ManualReviews.Resolution.Resolved r -> {
                log.record(operator, "manual_review.resolve", target, decision
                        + (pspReference == null ? "" : " psp_reference=" + pspReference)
                        + (note == null ? "" : ": " + note));
                yield new Outcome(true, "Review " + target + " resolved as " + decision + ".");
            }
            case ManualReviews.Resolution.NotOpen n -> new Outcome(false, "Review " + target
                    + " is already resolved; nothing changed.");
            case ManualReviews.Resolution.NotFound n -> new Outcome(false, "No review " + target + ".");
            case ManualReviews.Resolution.NotApplicable na -> new Outcome(false, "Review " + target + ": "
                    + na.detail() + " Nothing changed.");
        };
    }

    @Transactional
    public Outcome acknowledgeBreak(Operator operator, UUID breakId, String note) {
        return decided(operator, breakId, "recon_break.acknowledge", note,
                breaks.acknowledge(breakId, operator.name(), note), "acknowledged");
    }

    @Transactional
    public Outcome resolveBreak(Operator operator, UUID breakId, String note) {
        return decided(operator, breakId, "recon_break.resolve", note, breaks.resolve(breakId, operator.name(), note),
                "resolved");
    }

    private Outcome decided(Operator operator, UUID breakId, String action, String note,
            ReconBreaks.Decision decision, String verb) {
        String target = PrefixedId.format("brk", breakId);
        return switch (decision) {
            case ReconBreaks.Decision.Done done -> {
                log.record(operator, action, target, note);
                yield new Outcome(true, "Break " + target + " " + verb + ".");
            }
            case ReconBreaks.Decision.NotOpen closed -> new Outcome(false, "Break " + target + " is already "
                    + closed.reconBreak().status().apiName() + "; nothing changed.");
            case ReconBreaks.Decision.NotFound missing -> new Outcome(false, "No break " + target + ".");
        };
    }

    @Transactional
    public Outcome reenableEndpoint(Operator operator, UUID endpointId, boolean redeliver) {
        String target = PrefixedId.format("we", endpointId);
        return endpoints.reenable(endpointId, redeliver).map(done -> {
            log.record(operator, redeliver ? "webhook_endpoint.reenable_redeliver" : "webhook_endpoint.reenable",
                    target, done.redelivered() + " dead deliveries queued again");
            return new Outcome(true, "Endpoint " + target + " is enabled again" + (redeliver
                    ? "; " + done.redelivered() + " dead deliveries queued." : "."));
        }).orElseGet(() -> new Outcome(false, "Endpoint " + target + " is not disabled; nothing changed."));
    }
}
