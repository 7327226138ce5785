package dev.kopek.ledger.web;

import dev.kopek.ledger.BalancesBehind;
import dev.kopek.ledger.LedgerQueries;
import dev.kopek.ledger.LedgerTransaction;
import dev.kopek.ledger.MerchantBalance;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import dev.kopek.platform.ProblemCode;
import dev.kopek.platform.ProblemCodes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The merchant's view of the ledger: its balance and its journal (L11: only its own). */
@RestController
@Audience(Audience.Kind.MERCHANT)
class LedgerController {

    private static final int DEFAULT_PAGE = 20;

    private final LedgerQueries ledger;

    LedgerController(LedgerQueries ledger) {
        this.ledger = ledger;
    }

    @GetMapping("/v1/balance")
    @ProblemCodes(ProblemCode.BALANCES_BEHIND)
    Map<String, Object> balance(MerchantId merchant) {
        List<MerchantBalance> balances;
        try {
            balances = ledger.balances(merchant);
        } catch (BalancesBehind behind) {
            throw ApiProblem.withHeaders(
                    HttpStatus.SERVICE_UNAVAILABLE,
                    "balances_behind",
                    "The balance cannot be read exactly right now: the ledger's projection is behind. Payments are not"
                            + " affected; retry after Retry-After seconds.",
                    Map.of(HttpHeaders.RETRY_AFTER, "30"));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("object", "balance");
        json.put(
                "available",
                balances.stream()
                        .map(b -> LedgerJson.amount(b.availableMinor(), b.currency()))
                        .toList());
        json.put(
                "pending",
                balances.stream()
                        .map(b -> LedgerJson.amount(b.pendingMinor(), b.currency()))
                        .toList());
        json.put(
                "held",
                balances.stream()
                        .map(b -> LedgerJson.amount(b.heldMinor(), b.currency()))
                        .toList());
        return json;
    }

    @GetMapping("/v1/ledger/transactions")
    @ProblemCodes({ProblemCode.INVALID_PAYMENT_ID, ProblemCode.INVALID_CURSOR, ProblemCode.INVALID_LIMIT})
    Map<String, Object> transactions(
            MerchantId merchant,
            @RequestParam(name = "payment_id", required = false) String paymentId,
            @RequestParam(required = false) String limit,
            @RequestParam(required = false) String after) {
        UUID payment = paymentId == null
                ? null
                : PaymentId.parse(paymentId)
                        .map(PaymentId::value)
                        .orElseThrow(() -> ApiProblem.badRequest(
                                "invalid_payment_id", "payment_id", "payment_id is a payment id such as pay_0190f3…"));
        UUID cursor = after == null
                ? null
                : LedgerTransaction.parseId(after)
                        .orElseThrow(() -> ApiProblem.badRequest(
                                "invalid_cursor",
                                "after",
                                "after is the id of the last ledger transaction you saw (ltx_…)."));
        LedgerQueries.Page page = ledger.transactions(merchant, payment, cursor, pageSize(limit));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("object", "list");
        json.put(
                "data",
                page.transactions().stream().map(LedgerJson::transaction).toList());
        json.put("has_more", page.hasMore());
        return json;
    }

    @GetMapping("/v1/ledger/transactions/{id}")
    Map<String, Object> transaction(MerchantId merchant, @PathVariable String id) {
        return LedgerTransaction.parseId(id)
                .flatMap(tx -> ledger.transaction(merchant, tx))
                .map(LedgerJson::transaction)
                .orElseThrow(() -> ApiProblem.notFound("ledger transaction " + id));
    }

    private static int pageSize(String limit) {
        if (limit == null) {
            return DEFAULT_PAGE;
        }
        if (!limit.matches("[0-9]{1,3}")
                || Integer.parseInt(limit) < 1
                || Integer.parseInt(limit) > LedgerQueries.MAX_PAGE) {
            throw ApiProblem.badRequest(
                    "invalid_limit", "limit", "limit is a whole number from 1 to " + LedgerQueries.MAX_PAGE + ".");
        }
        return Integer.parseInt(limit);
    }
}
