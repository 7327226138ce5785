package dev.kopek.ledger.web;

import dev.kopek.audit.Actor;
import dev.kopek.audit.AuditTrail;
import dev.kopek.ledger.DriftChecker;
import dev.kopek.ledger.DriftReport;
import dev.kopek.ledger.Ledger;
import dev.kopek.ledger.LedgerQueries;
import dev.kopek.ledger.LedgerTransaction;
import dev.kopek.ledger.ProjectionRepair;
import dev.kopek.ledger.ReversalResult;
import dev.kopek.ledger.domain.FeeRule;
import dev.kopek.merchants.Merchants;
import dev.kopek.money.CurrencyCode;
import dev.kopek.money.MerchantId;
import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import dev.kopek.platform.JsonBodies;
import dev.kopek.platform.ProblemCode;
import dev.kopek.platform.ProblemCodes;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Admin API ({@code KOPEK_ADMIN_TOKEN}): merchants' fees, reversals, the drift check on demand and its repair. */
@RestController
@Audience(Audience.Kind.ADMIN)
class AdminLedgerController {

    private static final Set<String> FEE_FIELDS = Set.of("bps", "fixed_minor", "currency");
    private static final int MAX_BODY_BYTES = 4096;
    private static final int MAX_REASON = 500;

    private final Ledger ledger;
    private final LedgerQueries queries;
    private final DriftChecker drift;
    private final Merchants merchants;
    private final AuditTrail audit;

    AdminLedgerController(
            Ledger ledger, LedgerQueries queries, DriftChecker drift, Merchants merchants, AuditTrail audit) {
        this.ledger = ledger;
        this.queries = queries;
        this.drift = drift;
        this.merchants = merchants;
        this.audit = audit;
    }

    /** Sets the fee for one currency ({@code "bps":0,"fixed_minor":0} is no fee); it applies from the next capture. */
    @PutMapping("/v1/admin/merchants/{merchantId}/fees")
    @ProblemCodes(
            jsonBody = true,
            value = {ProblemCode.INVALID_BPS, ProblemCode.INVALID_FIXED_MINOR, ProblemCode.INVALID_CURRENCY})
    Map<String, Object> putFee(Actor actor, @PathVariable String merchantId, HttpServletRequest http) {
        MerchantId merchant = merchant(merchantId);
        ObjectNode body = JsonBodies.readObject(http, MAX_BODY_BYTES);
        body.propertyNames().stream()
                .filter(n -> !FEE_FIELDS.contains(n))
                .findFirst()
                .ifPresent(n -> {
                    throw ApiProblem.badRequest("unknown_field", n, "Unknown field '" + n + "'.");
                });
        long bps = integer(body, "bps", FeeRule.MAX_BPS);
        long fixed = integer(body, "fixed_minor", FeeRule.MAX_FIXED_MINOR);
        JsonNode currency = body.get("currency");
        CurrencyCode code = currency == null || !currency.isString()
                ? null
                : CurrencyCode.parse(currency.stringValue()).orElse(null);
        if (code == null) {
            throw ApiProblem.badRequest(
                    "invalid_currency",
                    "currency",
                    "currency is an ISO 4217 code with minor units, such as RUB or EUR.");
        }
        return audit.inTransaction(status -> {
            Map<String, Object> before = queries.fees(merchant).stream()
                    .filter(f -> f.currency().equals(code.code()))
                    .findFirst()
                    .map(LedgerJson::fee)
                    .orElse(null);
            Map<String, Object> after =
                    LedgerJson.fee(queries.setFee(merchant, code.code(), new FeeRule((int) bps, fixed)));
            audit.record(actor, "fee.changed", "merchant", merchant.toString(), before, after);
            return after;
        });
    }

    @GetMapping("/v1/admin/merchants/{merchantId}/fees")
    Map<String, Object> fees(@PathVariable String merchantId) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("object", "list");
        json.put(
                "data",
                queries.fees(merchant(merchantId)).stream().map(LedgerJson::fee).toList());
        return json;
    }

    /** Posts the reversal of a journal transaction. Asking twice returns the same reversal with 200. */
    @PostMapping("/v1/admin/ledger/transactions/{id}/reversal")
    @ProblemCodes(
            jsonBody = true,
            value = {ProblemCode.INVALID_REASON})
    ResponseEntity<Map<String, Object>> reverse(Actor actor, @PathVariable String id, HttpServletRequest http) {
        UUID transaction =
                LedgerTransaction.parseId(id).orElseThrow(() -> ApiProblem.notFound("ledger transaction " + id));
        ObjectNode body = JsonBodies.readObject(http, MAX_BODY_BYTES);
        body.propertyNames().stream()
                .filter(n -> !n.equals("reason"))
                .findFirst()
                .ifPresent(n -> {
                    throw ApiProblem.badRequest("unknown_field", n, "Unknown field '" + n + "'.");
                });
        JsonNode reason = body.get("reason");
        if (reason == null
                || !reason.isString()
                || reason.stringValue().isBlank()
                || reason.stringValue().length() > MAX_REASON) {
            throw ApiProblem.badRequest("invalid_reason", "reason", "reason is required: 1–500 characters.");
        }
        ReversalResult result = audit.inTransaction(status -> {
            ReversalResult reversed =
                    ledger.reverse(transaction, reason.stringValue().strip());
            if (reversed instanceof ReversalResult.Reversed r) {
                audit.record(
                        actor,
                        "ledger_transaction.reversed",
                        "ledger_transaction",
                        id,
                        null,
                        LedgerJson.transaction(r.reversal()));
            }
            return reversed;
        });
        return switch (result) {
            case ReversalResult.Reversed r ->
                ResponseEntity.status(HttpStatus.CREATED).body(LedgerJson.transaction(r.reversal()));
            case ReversalResult.AlreadyReversed r -> ResponseEntity.ok(LedgerJson.transaction(r.reversal()));
            case ReversalResult.NotFound n -> throw ApiProblem.notFound("ledger transaction " + id);
        };
    }

    @GetMapping("/v1/admin/ledger/transactions/{id}")
    Map<String, Object> transaction(@PathVariable String id) {
        return LedgerTransaction.parseId(id)
                .flatMap(queries::transaction)
                .map(LedgerJson::transaction)
                .orElseThrow(() -> ApiProblem.notFound("ledger transaction " + id));
    }

    /** Runs the drift check now (it also runs on a schedule). */
    @PostMapping("/v1/ops/ledger/drift-check")
    Map<String, Object> checkDrift() {
        DriftReport report = drift.check();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("object", "ledger_drift_check");
        json.put("accounts_checked", report.accountsChecked());
        json.put(
                "drifted",
                report.drifts().stream()
                        .map(d -> {
                            Map<String, Object> account = new LinkedHashMap<>();
                            account.put("account_id", d.accountId());
                            account.put("type", d.type());
                            account.put(
                                    "merchant", d.merchant() == null ? null : new MerchantId(d.merchant()).toString());
                            account.put("currency", d.currency());
                            account.put("projected_debits", d.projectedDebitsMinor());
                            account.put("projected_credits", d.projectedCreditsMinor());
                            account.put("entry_debits", d.entryDebitsMinor());
                            account.put("entry_credits", d.entryCreditsMinor());
                            return account;
                        })
                        .toList());
        return json;
    }

    /**
     * The drift check's repair (docs/runbooks/ledger-drift.md): adds to each balance what its entries below the
     * projection's mark hold beyond it, audited. Refused, changing nothing, where a balance exceeds its entries or a
     * transaction older than the mark stays open.
     */
    @PostMapping("/v1/ops/ledger/projection/repair")
    @ProblemCodes(ProblemCode.LEDGER_REPAIR_REFUSED)
    Map<String, Object> repairProjection(Actor actor) {
        String[] refused = new String[1];
        ProjectionRepair repaired = audit.inTransaction(status -> {
            try {
                ProjectionRepair added = drift.repair();
                audit.record(
                        actor,
                        "ledger.projection_repaired",
                        "ledger",
                        "projection",
                        null,
                        Map.of(
                                "accounts",
                                added.accounts().stream()
                                        .map(AdminLedgerController::repaired)
                                        .toList()));
                return added;
            } catch (ProjectionRepair.Refused e) {
                status.setRollbackOnly();
                refused[0] = e.getMessage();
                return null;
            }
        });
        if (refused[0] != null) {
            throw ApiProblem.of(HttpStatus.CONFLICT, "ledger_repair_refused", refused[0]);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("object", "ledger_projection_repair");
        json.put(
                "repaired",
                repaired.accounts().stream()
                        .map(AdminLedgerController::repaired)
                        .toList());
        return json;
    }

    private static Map<String, Object> repaired(ProjectionRepair.Added r) {
        Map<String, Object> account = new LinkedHashMap<>();
        account.put("account_id", r.accountId());
        account.put("added_debits", r.addedDebitMinor());
        account.put("added_credits", r.addedCreditMinor());
        return account;
    }

    private MerchantId merchant(String text) {
        return MerchantId.parse(text)
                .filter(id -> merchants.find(id).isPresent())
                .orElseThrow(() -> ApiProblem.notFound("merchant " + text));
    }

    private static long integer(ObjectNode body, String field, long max) {
        JsonNode node = body.get(field);
        if (node == null
                || !node.isIntegralNumber()
                || !node.canConvertToLong()
                || node.longValue() < 0
                || node.longValue() > max) {
            throw ApiProblem.badRequest(
                    "invalid_" + field, field, field + " is required: a whole number from 0 to " + max + ".");
        }
        return node.longValue();
    }
}
