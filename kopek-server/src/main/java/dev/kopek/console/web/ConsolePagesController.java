package dev.kopek.console.web;

import dev.kopek.audit.AuditEvents;
import dev.kopek.console.ConsoleQueries;
import dev.kopek.console.HealthHistory;
import dev.kopek.console.HealthQueries;
import dev.kopek.invariants.Invariants;
import dev.kopek.ledger.DriftChecker;
import dev.kopek.platform.Audience;
import dev.kopek.platform.RecoveryMeters;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/** The console's pages. Reading only: every page works with JavaScript off. */
@Controller
@Audience(Audience.Kind.CONSOLE)
class ConsolePagesController {

    private static final int QUEUE_LIMIT = 200;
    private static final int AUDIT_PAGE = 100;

    private final ConsoleQueries queries;
    private final HealthQueries health;
    private final HealthHistory history;
    private final AuditEvents audit;
    private final DriftChecker drift;
    private final Invariants invariants;

    ConsolePagesController(
            ConsoleQueries queries,
            HealthQueries health,
            HealthHistory history,
            AuditEvents audit,
            DriftChecker drift,
            Invariants invariants) {
        this.queries = queries;
        this.health = health;
        this.history = history;
        this.audit = audit;
        this.drift = drift;
        this.invariants = invariants;
    }

    @GetMapping({"/console", "/console/"})
    String home() {
        return "redirect:/console/payments";
    }

    @GetMapping("/console/payments")
    String payments(
            @RequestParam(required = false) String q,
            @RequestParam(required = false) String merchant,
            @RequestParam(required = false) String status,
            @RequestParam(required = false) String from,
            @RequestParam(required = false) String to,
            Model model) {
        String query = ConsoleInput.text(q, "search", 128);
        String merchantText = ConsoleInput.text(merchant, "merchant", 200);
        boolean byId = query != null && query.startsWith("pay_");
        boolean merchantById = merchantText != null && merchantText.startsWith("mer_");
        var search = new ConsoleQueries.Search(
                byId ? ConsoleInput.id("pay", query, "search") : null,
                byId ? null : query,
                merchantById ? ConsoleInput.id("mer", merchantText, "merchant") : null,
                merchantById ? null : merchantText,
                ConsoleInput.status(status),
                ConsoleInput.day(from, "from", false),
                ConsoleInput.day(to, "to", true));
        model.addAttribute("rows", queries.payments(search));
        model.addAttribute("q", query);
        model.addAttribute("merchant", merchantText);
        model.addAttribute("status", status == null ? "" : status.toLowerCase(Locale.ROOT));
        model.addAttribute("from", from);
        model.addAttribute("to", to);
        model.addAttribute(
                "statuses",
                List.of(
                        "pending",
                        "unknown",
                        "authorized",
                        "captured",
                        "partially_refunded",
                        "refunded",
                        "declined",
                        "failed",
                        "voided",
                        "expired",
                        "disputed",
                        "charged_back"));
        model.addAttribute("page", ConsoleQueries.PAGE);
        return "console/payments";
    }

    @GetMapping("/console/payments/{id}")
    String payment(@PathVariable String id, Model model) {
        var payment = queries.payment(ConsoleInput.id("pay", id, "payment"))
                .orElseThrow(() -> ConsoleInputException.notFound("There is no payment " + id.strip() + "."));
        model.addAttribute("p", payment);
        model.addAttribute("pageTitle", ConsoleInput.text(id, "payment", 80));
        model.addAttribute("story", queries.story(payment));
        return "console/payment";
    }

    @GetMapping("/console/attention")
    String attention(Model model) {
        model.addAttribute("inFlight", queries.inFlight(QUEUE_LIMIT));
        model.addAttribute("reviews", queries.openReviews(QUEUE_LIMIT));
        model.addAttribute("dead", queries.deadDeliveries(QUEUE_LIMIT));
        model.addAttribute("deadNotifications", queries.deadNotifications(QUEUE_LIMIT));
        model.addAttribute("disabled", queries.disabledEndpoints(QUEUE_LIMIT));
        return "console/attention";
    }

    @GetMapping("/console/reconciliation")
    String reconciliation(@RequestParam(required = false) String type, Model model) {
        String breakType = type == null || type.isBlank() ? null : type.toUpperCase(Locale.ROOT);
        if (breakType != null
                && !List.of("MISSING_INTERNAL", "MISSING_AT_PSP", "AMOUNT_MISMATCH", "STATUS_MISMATCH")
                        .contains(breakType)) {
            throw new ConsoleInputException(
                    "type is missing_internal, missing_at_psp, amount_mismatch or" + " status_mismatch.");
        }
        model.addAttribute("runs", queries.settlementRuns(30));
        model.addAttribute("counts", queries.breakCounts());
        model.addAttribute("breaks", queries.breaks(breakType, QUEUE_LIMIT));
        model.addAttribute("type", breakType == null ? "" : breakType.toLowerCase(Locale.ROOT));
        return "console/reconciliation";
    }

    @GetMapping("/console/health")
    String health(Model model) {
        Map<String, HealthQueries.Unknowns> unknowns = new LinkedHashMap<>();
        Map<String, Long> reviews = new LinkedHashMap<>();
        for (String kind : RecoveryMeters.KINDS) {
            unknowns.put(kind, health.unknowns(kind));
        }
        for (String kind : HealthQueries.REVIEW_SUBJECTS) {
            reviews.put(kind, health.openReviews(kind));
        }
        List<HealthHistory.Sample> samples = history.lastHour();
        if (samples.isEmpty()) {
            samples = List.of(history.sample());
        }
        HealthHistory.Sample now = history.current();
        model.addAttribute("unknowns", unknowns);
        model.addAttribute("reviews", reviews);
        model.addAttribute("feedLag", health.feedLagSeconds());
        model.addAttribute("webhookLag", health.webhookLagSeconds());
        model.addAttribute("deadLetters", health.deadLetters());
        model.addAttribute("disabledEndpoints", health.disabledEndpoints());
        model.addAttribute("reportedBreaks", health.reportedBreaks());
        model.addAttribute("drift", drift.lastCheck().orElse(null));
        model.addAttribute("now", now);
        model.addAttribute("samples", samples.size());
        model.addAttribute(
                "charts",
                List.of(
                        chart(
                                "Unknown outcomes",
                                HealthHistory.chart(samples, s -> s.unknown(), "unknown outcomes", false)),
                        chart(
                                "Oldest unknown (s)",
                                HealthHistory.chart(
                                        samples,
                                        HealthHistory.Sample::oldestUnknownSeconds,
                                        "oldest unknown in seconds",
                                        false)),
                        chart(
                                "Manual-review queue",
                                HealthHistory.chart(samples, s -> s.reviewOpen(), "review queue", false)),
                        chart(
                                "Outbox lag (s)",
                                HealthHistory.chart(
                                        samples,
                                        HealthHistory.Sample::outboxLagSeconds,
                                        "outbox lag in seconds",
                                        false)),
                        chart(
                                "Webhook failure rate",
                                HealthHistory.chart(
                                        samples,
                                        HealthHistory.Sample::webhookFailureRate,
                                        "webhook failure rate",
                                        true)),
                        chart(
                                "PSP error rate",
                                HealthHistory.chart(
                                        samples, HealthHistory.Sample::pspErrorRate, "PSP error rate", true))));
        return "console/health";
    }

    /** The production audit: each check's last run, its coverage, and the violations it found (issue 26 §2). */
    @GetMapping("/console/invariants")
    String invariants(Model model) {
        List<Invariants.CheckStatus> checks = invariants.checks();
        model.addAttribute("checks", checks);
        model.addAttribute(
                "total",
                checks.stream().mapToLong(Invariants.CheckStatus::violations).sum());
        model.addAttribute("violations", invariants.current(QUEUE_LIMIT));
        return "console/invariants";
    }

    /** The audit trail (every admin's and the console's decisions), newest first; by actor or target id. */
    @GetMapping("/console/audit")
    String audit(
            @RequestParam(required = false) String actor,
            @RequestParam(required = false) String target,
            @RequestParam(required = false) String before,
            Model model) {
        String actorId = ConsoleInput.text(actor, "actor", 100);
        String targetId = ConsoleInput.text(target, "target", 100);
        String cursor = ConsoleInput.text(before, "before", 18);
        if (cursor != null && !cursor.chars().allMatch(c -> c >= '0' && c <= '9')) {
            // ASCII digits only, at most 18 of them: always a long (Character.isDigit would take other scripts).
            throw new ConsoleInputException("before is the sequence number of an event.");
        }
        var page = audit.page(actorId, targetId, cursor == null ? null : Long.valueOf(cursor), AUDIT_PAGE);
        model.addAttribute("entries", page.events());
        model.addAttribute("more", page.hasMore());
        model.addAttribute(
                "next", page.events().isEmpty() ? null : page.events().getLast().seq());
        model.addAttribute("actor", actorId);
        model.addAttribute("target", targetId);
        return "console/audit";
    }

    private static Map<String, String> chart(String title, String svg) {
        return Map.of("title", title, "svg", svg);
    }
}
