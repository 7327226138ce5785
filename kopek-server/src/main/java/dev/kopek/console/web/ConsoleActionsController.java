package dev.kopek.console.web;

import dev.kopek.audit.Actor;
import dev.kopek.console.ConsoleActions;
import dev.kopek.platform.Audience;
import java.util.UUID;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The console's actions: each form posts here (with the session's CSRF token, checked by the access decision),
 * the decision goes through {@link ConsoleActions} — the admin API's services plus the audit trail, as the logged-in
 * admin identity — and the page the person came from shows what happened.
 */
@Controller
@Audience(Audience.Kind.CONSOLE)
class ConsoleActionsController {

    private final ConsoleActions actions;

    ConsoleActionsController(ConsoleActions actions) {
        this.actions = actions;
    }

    @PostMapping("/console/reviews/{id}/resolve")
    String resolveReview(
            @PathVariable String id,
            @RequestParam(required = false) String decision,
            @RequestParam(name = "psp_reference", required = false) String pspReference,
            @RequestParam(required = false) String note,
            Actor actor,
            RedirectAttributes flash) {
        UUID review = ConsoleInput.id("mrv", id, "review");
        String chosen = ConsoleInput.required(decision, "decision", 20);
        if (!java.util.Set.of("captured", "authorized", "succeeded", "failed", "acknowledged")
                .contains(chosen)) {
            throw new ConsoleInputException("decision is captured, authorized, succeeded (the PSP moved the money),"
                    + " failed (it did not) or acknowledged.");
        }
        boolean moved = java.util.Set.of("captured", "authorized", "succeeded").contains(chosen);
        String reference = moved ? ConsoleInput.stored(pspReference, "PSP reference", 128, true) : null;
        String text = ConsoleInput.stored(note, "note", 2000, true);
        return done(flash, actions.resolveReview(actor, review, chosen, reference, text), "/console/attention");
    }

    @PostMapping("/console/breaks/{id}/acknowledge")
    String acknowledge(
            @PathVariable String id,
            @RequestParam(required = false) String note,
            Actor actor,
            RedirectAttributes flash) {
        UUID breakId = ConsoleInput.id("brk", id, "break");
        return done(
                flash,
                actions.acknowledgeBreak(actor, breakId, ConsoleInput.stored(note, "note", 2000, false)),
                "/console/reconciliation");
    }

    @PostMapping("/console/breaks/{id}/resolve")
    String resolveBreak(
            @PathVariable String id,
            @RequestParam(required = false) String note,
            Actor actor,
            RedirectAttributes flash) {
        UUID breakId = ConsoleInput.id("brk", id, "break");
        return done(
                flash,
                actions.resolveBreak(actor, breakId, ConsoleInput.stored(note, "note", 2000, true)),
                "/console/reconciliation");
    }

    @PostMapping("/console/endpoints/{id}/reenable")
    String reenable(
            @PathVariable String id,
            @RequestParam(required = false) String redeliver,
            Actor actor,
            RedirectAttributes flash) {
        UUID endpoint = ConsoleInput.id("we", id, "endpoint");
        return done(flash, actions.reenableEndpoint(actor, endpoint, "yes".equals(redeliver)), "/console/attention");
    }

    private static String done(RedirectAttributes flash, ConsoleActions.Outcome outcome, String back) {
        flash.addFlashAttribute(outcome.ok() ? "notice" : "warning", outcome.message());
        return "redirect:" + back;
    }
}
