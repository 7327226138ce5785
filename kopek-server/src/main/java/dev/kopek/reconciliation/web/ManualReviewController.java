package dev.kopek.reconciliation.web;

import dev.kopek.audit.Actor;
import dev.kopek.audit.AuditTrail;
import dev.kopek.money.PrefixedId;
import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import dev.kopek.platform.JsonBodies;
import dev.kopek.platform.ProblemCode;
import dev.kopek.platform.ProblemCodes;
import dev.kopek.reconciliation.ManualReview;
import dev.kopek.reconciliation.ManualReviews;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Admin API of the manual-review queue ({@code KOPEK_ADMIN_TOKEN}). */
@RestController
@Audience(Audience.Kind.ADMIN)
@RequestMapping("/v1/ops/manual-review")
class ManualReviewController {

    private static final Set<String> STATUSES = Set.of("open", "resolved", "all");
    private static final Set<String> FIELDS = Set.of("decision", "psp_reference", "capture_before", "note");
    private static final Set<String> DECISIONS =
            Set.of("captured", "authorized", "failed", "succeeded", "acknowledged");
    private static final Set<String> NEEDS_REFERENCE = Set.of("captured", "authorized", "succeeded");

    private final ManualReviews reviews;
    private final AuditTrail audit;

    ManualReviewController(ManualReviews reviews, AuditTrail audit) {
        this.reviews = reviews;
        this.audit = audit;
    }

    @GetMapping
    Map<String, Object> list(
            @RequestParam(defaultValue = "open") String status, @RequestParam(defaultValue = "100") int limit) {
        if (!STATUSES.contains(status) || limit < 1 || limit > 500) {
            throw ApiProblem.badRequest("invalid_query", "status", "status is open, resolved or all; limit 1–500.");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("object", "list");
        body.put(
                "data",
                reviews.list(status.toUpperCase(Locale.ROOT), limit).stream()
                        .map(this::json)
                        .toList());
        return body;
    }

    @PostMapping("/{id}/resolve")
    @ProblemCodes(
            jsonBody = true,
            value = {
                ProblemCode.ACTOR_FROM_CREDENTIALS,
                ProblemCode.INVALID_DECISION,
                ProblemCode.INVALID_PSP_REFERENCE,
                ProblemCode.INVALID_CAPTURE_BEFORE,
                ProblemCode.INVALID_NOTE,
                ProblemCode.REVIEW_NOT_OPEN,
                ProblemCode.DECISION_NOT_APPLICABLE
            })
    Map<String, Object> resolve(Actor actor, @PathVariable String id, HttpServletRequest http) {
        var reviewId = PrefixedId.parse("mrv", id).orElseThrow(() -> ApiProblem.notFound("manual review " + id));
        ObjectNode body = JsonBodies.readObject(http, 4096);
        if (body.has("resolved_by")) {
            // Refused, not ignored: a client that believes it names the resolver must learn that it does not.
            throw ApiProblem.badRequest(
                    "actor_from_credentials",
                    "resolved_by",
                    "resolved_by is not accepted: the" + " resolver is the admin identity that sends the request.");
        }
        body.propertyNames().stream()
                .filter(name -> !FIELDS.contains(name))
                .findFirst()
                .ifPresent(name -> {
                    throw ApiProblem.badRequest("unknown_field", name, "Unknown field '" + name + "'.");
                });
        String decision = text(body, "decision", 20);
        if (!DECISIONS.contains(decision)) {
            throw ApiProblem.badRequest(
                    "invalid_decision",
                    "decision",
                    "decision is 'captured', 'authorized' or"
                            + " 'failed' for a payment; 'succeeded' or 'failed' for a capture, void or refund; 'acknowledged'"
                            + " for an exposure, a notification or an invariant violation. captured, authorized and succeeded"
                            + " need psp_reference.");
        }
        String pspReference = NEEDS_REFERENCE.contains(decision) ? text(body, "psp_reference", 128) : null;
        Instant captureBefore = body.has("capture_before") ? instant(body, "capture_before") : null;
        String note = body.has("note") ? text(body, "note", 2000) : null;
        var chosen = new ManualReviews.Decision(decision, pspReference, captureBefore);
        ManualReviews.Resolution resolution = audit.inTransaction(status -> {
            var result = reviews.resolve(reviewId, chosen, actor.name(), note);
            if (result instanceof ManualReviews.Resolution.Resolved r) {
                Map<String, Object> before = new LinkedHashMap<>();
                before.put("status", "open");
                before.put("subject", r.review().subject());
                before.put(
                        "payment_id",
                        r.review().payment() == null
                                ? null
                                : r.review().payment().toString());
                audit.record(actor, "manual_review.resolved", "manual_review", id, before, json(r.review()));
            }
            return result;
        });
        return switch (resolution) {
            case ManualReviews.Resolution.Resolved r -> json(r.review());
            case ManualReviews.Resolution.NotOpen n ->
                throw ApiProblem.of(HttpStatus.CONFLICT, "review_not_open", "This review is already resolved.");
            case ManualReviews.Resolution.NotFound n -> throw ApiProblem.notFound("manual review " + id);
            case ManualReviews.Resolution.NotApplicable u ->
                throw ApiProblem.of(HttpStatus.CONFLICT, "decision_not_applicable", u.detail());
        };
    }

    private static Instant instant(ObjectNode body, String field) {
        try {
            return Instant.parse(text(body, field, 40));
        } catch (java.time.format.DateTimeParseException e) {
            throw ApiProblem.badRequest("invalid_" + field, field, field + " is an ISO-8601 instant.");
        }
    }

    private static String text(ObjectNode body, String field, int max) {
        JsonNode node = body.get(field);
        if (node == null
                || !node.isString()
                || node.stringValue().isBlank()
                || node.stringValue().length() > max) {
            throw ApiProblem.badRequest(
                    "invalid_" + field, field, field + " is required: a string of 1–" + max + " characters.");
        }
        return node.stringValue();
    }

    private Map<String, Object> json(ManualReview review) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", PrefixedId.format("mrv", review.id()));
        json.put("object", "manual_review");
        json.put(
                "merchant_id",
                review.merchant() == null ? null : review.merchant().toString());
        json.put(
                "payment_id", review.payment() == null ? null : review.payment().toString());
        json.put("subject", review.subject());
        json.put("status", review.status().toLowerCase(Locale.ROOT));
        json.put("reason", review.reason());
        json.put("created_at", review.createdAt().toString());
        json.put("resolution", review.resolution());
        json.put("psp_reference", review.pspReference());
        json.put("resolved_by", review.resolvedBy());
        json.put("note", review.note());
        json.put(
                "resolved_at",
                review.resolvedAt() == null ? null : review.resolvedAt().toString());
        return json;
    }
}
