package dev.kopek.reconciliation.settlement.web;

import dev.kopek.audit.Actor;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.money.PrefixedId;
import dev.kopek.money.RefundId;
import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import dev.kopek.platform.JsonBodies;
import dev.kopek.platform.ProblemCode;
import dev.kopek.platform.ProblemCodes;
import dev.kopek.reconciliation.settlement.BreakDecisions;
import dev.kopek.reconciliation.settlement.BreakStatus;
import dev.kopek.reconciliation.settlement.BreakType;
import dev.kopek.reconciliation.settlement.ReconBreak;
import dev.kopek.reconciliation.settlement.ReconBreaks;
import dev.kopek.reconciliation.settlement.RunResult;
import dev.kopek.reconciliation.settlement.SettlementAudit;
import dev.kopek.reconciliation.settlement.SettlementReconciliation;
import dev.kopek.reconciliation.settlement.Trigger;
import jakarta.servlet.http.HttpServletRequest;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Admin API of settlement reconciliation ({@code KOPEK_ADMIN_TOKEN}): run a date on demand, list breaks. */
@RestController
@Audience(Audience.Kind.ADMIN)
@RequestMapping("/v1/ops")
class SettlementController {

    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern LIMIT = Pattern.compile("\\d{1,3}");
    private static final Set<String> RUN_FIELDS = Set.of("date");
    private static final Map<String, Set<BreakStatus>> STATUSES = Map.of(
            "open", EnumSet.of(BreakStatus.CANDIDATE, BreakStatus.REPORTED),
            "candidate", EnumSet.of(BreakStatus.CANDIDATE),
            "reported", EnumSet.of(BreakStatus.REPORTED),
            "cleared", EnumSet.of(BreakStatus.CLEARED),
            "resolved", EnumSet.of(BreakStatus.RESOLVED),
            "all", EnumSet.allOf(BreakStatus.class));

    private final SettlementReconciliation reconciliation;
    private final ReconBreaks breaks;
    private final SettlementAudit settlementAudit;
    private final BreakDecisions decisions;

    SettlementController(
            SettlementReconciliation reconciliation,
            ReconBreaks breaks,
            SettlementAudit settlementAudit,
            BreakDecisions decisions) {
        this.decisions = decisions;
        this.reconciliation = reconciliation;
        this.breaks = breaks;
        this.settlementAudit = settlementAudit;
    }

    @PostMapping("/settlements/runs")
    @ProblemCodes(
            jsonBody = true,
            value = {ProblemCode.INVALID_DATE, ProblemCode.DATE_NOT_CLOSED, ProblemCode.SETTLEMENT_FILE_UNAVAILABLE})
    Map<String, Object> run(Actor actor, HttpServletRequest http) {
        ObjectNode body = JsonBodies.readObject(http, 1024);
        body.propertyNames().stream()
                .filter(name -> !RUN_FIELDS.contains(name))
                .findFirst()
                .ifPresent(name -> {
                    throw ApiProblem.badRequest("unknown_field", name, "Unknown field '" + name + "'.");
                });
        JsonNode date = body.get("date");
        LocalDate day = date != null && date.isString() ? parseDate(date.stringValue()) : null;
        if (day == null) {
            throw ApiProblem.badRequest("invalid_date", "date", "date is required: a settlement date as yyyy-mm-dd.");
        }
        RunResult result = reconciliation.run(day, Trigger.ADMIN);
        settlementAudit.recordRun(actor, day, result);
        return switch (result) {
            case RunResult.Completed completed -> SettlementJson.run(completed);
            case RunResult.DateNotClosed notClosed ->
                throw ApiProblem.of(
                        HttpStatus.UNPROCESSABLE_CONTENT,
                        "date_not_closed",
                        "The file of " + notClosed.date() + " is not final until that day has ended"
                                + " (UTC); the latest date that can be run is " + notClosed.latestClosed() + ".");
            case RunResult.FileUnavailable failed ->
                throw ApiProblem.of(
                        HttpStatus.BAD_GATEWAY,
                        "settlement_file_unavailable",
                        "The PSP's settlement file of " + failed.date()
                                + " could not be fetched or read; nothing was matched. Try again later.");
        };
    }

    @GetMapping("/recon-breaks")
    Map<String, Object> list(
            @RequestParam(required = false) String type,
            @RequestParam(defaultValue = "open") String status,
            @RequestParam(required = false) String date,
            @RequestParam(defaultValue = "100") String limit) {
        BreakType breakType = type == null
                ? null
                : BreakType.fromApi(type)
                        .orElseThrow(() -> invalid(
                                "type",
                                "type is missing_internal, missing_at_psp, amount_mismatch or status_mismatch."));
        Set<BreakStatus> statuses = STATUSES.get(status);
        if (statuses == null) {
            throw invalid(
                    "status",
                    "status is open (candidate and reported), candidate, reported, cleared," + " resolved or all.");
        }
        LocalDate day = date == null ? null : parseDate(date);
        if (date != null && day == null) {
            throw invalid("date", "date is a settlement date as yyyy-mm-dd.");
        }
        int max = LIMIT.matcher(limit).matches() ? Integer.parseInt(limit) : 0;
        if (max < 1 || max > ReconBreaks.MAX_LIMIT) {
            throw invalid("limit", "limit is a whole number from 1 to " + ReconBreaks.MAX_LIMIT + ".");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("object", "list");
        body.put(
                "data",
                breaks.list(breakType, statuses, day, max).stream()
                        .map(SettlementJson::reconBreak)
                        .toList());
        return body;
    }

    /** A person saw the break and is working on it: {@code {note?}}. It stays open. Who: the admin token's. */
    @PostMapping("/recon-breaks/{id}/acknowledge")
    @ProblemCodes(
            jsonBody = true,
            value = {ProblemCode.ACTOR_FROM_CREDENTIALS, ProblemCode.INVALID_NOTE, ProblemCode.BREAK_NOT_OPEN})
    Map<String, Object> acknowledge(Actor actor, @PathVariable String id, HttpServletRequest http) {
        UUID breakId = breakId(id);
        String note = BreakNote.read(http, false);
        return decided(id, decisions.acknowledge(actor, breakId, note));
    }

    /** A person settled the difference and says how: {@code {note}}. The break is closed. */
    @PostMapping("/recon-breaks/{id}/resolve")
    @ProblemCodes(
            jsonBody = true,
            value = {ProblemCode.ACTOR_FROM_CREDENTIALS, ProblemCode.INVALID_NOTE, ProblemCode.BREAK_NOT_OPEN})
    Map<String, Object> resolve(Actor actor, @PathVariable String id, HttpServletRequest http) {
        UUID breakId = breakId(id);
        String note = BreakNote.read(http, true);
        return decided(id, decisions.resolve(actor, breakId, note));
    }

    private static UUID breakId(String id) {
        return PrefixedId.parse("brk", id).orElseThrow(() -> ApiProblem.notFound("reconciliation break " + id));
    }

    private static Map<String, Object> decided(String id, ReconBreaks.Decision decision) {
        return switch (decision) {
            case ReconBreaks.Decision.Done done -> SettlementJson.reconBreak(done.reconBreak());
            case ReconBreaks.Decision.NotOpen closed ->
                throw ApiProblem.of(
                        HttpStatus.CONFLICT,
                        "break_not_open",
                        "This break is already " + closed.reconBreak().status().apiName() + ".");
            case ReconBreaks.Decision.NotFound missing -> throw ApiProblem.notFound("reconciliation break " + id);
        };
    }

    /** The body of a decision on a break: the note (what was done). Who decides is the caller, not the body. */
    private static final class BreakNote {

        private static final Set<String> FIELDS = Set.of("note");

        static String read(HttpServletRequest http, boolean required) {
            ObjectNode body = JsonBodies.readObject(http, 4096);
            for (String claimed : List.of("by", "resolved_by", "acknowledged_by")) {
                if (body.has(claimed)) {
                    // Refused, not ignored: a client that believes it names the person must learn that it does not.
                    throw ApiProblem.badRequest(
                            "actor_from_credentials",
                            claimed,
                            claimed + " is not accepted: the"
                                    + " person deciding is the admin identity that sends the request.");
                }
            }
            body.propertyNames().stream()
                    .filter(name -> !FIELDS.contains(name))
                    .findFirst()
                    .ifPresent(name -> {
                        throw ApiProblem.badRequest("unknown_field", name, "Unknown field '" + name + "'.");
                    });
            JsonNode node = body.get("note");
            if (node == null && !required) {
                return null;
            }
            if (node == null
                    || !node.isString()
                    || node.stringValue().isBlank()
                    || node.stringValue().length() > 2000) {
                throw ApiProblem.badRequest("invalid_note", "note", "note is required: a string of 1–2000 characters.");
            }
            return node.stringValue();
        }
    }

    private static ApiProblem invalid(String field, String detail) {
        return ApiProblem.badRequest("invalid_query", field, detail);
    }

    private static LocalDate parseDate(String text) {
        if (!DATE.matcher(text).matches()) {
            return null;
        }
        try {
            return LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The JSON shapes of this API, kept beside it. */
    private static final class SettlementJson {

        static Map<String, Object> run(RunResult.Completed completed) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("object", "settlement_run");
            json.put("date", completed.date().toString());
            json.put(
                    "passes",
                    completed.passes().stream().map(SettlementAudit::pass).toList());
            json.put(
                    "accounts",
                    completed.accounts().stream().map(SettlementAudit::account).toList());
            return json;
        }

        static Map<String, Object> reconBreak(ReconBreak b) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("id", PrefixedId.format("brk", b.id()));
            json.put("object", "recon_break");
            json.put("type", b.type().apiName());
            json.put("status", b.status().apiName());
            json.put("provider", b.provider());
            json.put("settlement_date", b.settlementDate().toString());
            json.put("psp_reference", b.pspReference());
            json.put("movement", b.movement());
            json.put("psp", b.pspType() == null ? null : side(b.pspType(), null, b.pspAmount(), b.pspCurrency()));
            json.put("kopek", b.internalKind() == null ? null : kopek(b));
            json.put("seen_count", b.seenCount());
            json.put("created_at", b.createdAt().toString());
            json.put("updated_at", b.updatedAt().toString());
            json.put(
                    "reported_at",
                    b.reportedAt() == null ? null : b.reportedAt().toString());
            json.put("closed_at", b.closedAt() == null ? null : b.closedAt().toString());
            json.put("resolution", b.resolution());
            return json;
        }

        private static Map<String, Object> kopek(ReconBreak b) {
            Map<String, Object> json =
                    side(b.internalType(), b.internalStatus(), b.internalAmount(), b.internalCurrency());
            json.put("kind", b.internalKind());
            json.put("id", publicId(b.internalKind(), b.internalId()));
            json.put("payment_id", b.paymentId() == null ? null : new PaymentId(b.paymentId()).toString());
            json.put("merchant_id", b.merchantId() == null ? null : new MerchantId(b.merchantId()).toString());
            return json;
        }

        private static Map<String, Object> side(String type, String status, Long amount, String currency) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("type", type);
            if (status != null) {
                json.put("status", status.toLowerCase(Locale.ROOT));
            }
            json.put("amount", amount);
            json.put("currency", currency);
            return json;
        }

        /** Captures and voids have no public id of their own yet; they are shown under an {@code op_} prefix. */
        private static String publicId(String kind, UUID id) {
            if (id == null) {
                return null;
            }
            return switch (kind) {
                case "payment" -> new PaymentId(id).toString();
                case "refund" -> new RefundId(id).toString();
                case "dispute" -> PrefixedId.format("dp", id);
                default -> PrefixedId.format("op", id);
            };
        }
    }
}
