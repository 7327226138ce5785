package dev.kopek.ledger.web;

import dev.kopek.ledger.Fee;
import dev.kopek.ledger.LedgerEntry;
import dev.kopek.ledger.LedgerTransaction;
import dev.kopek.ledger.domain.AccountType;
import dev.kopek.money.PaymentId;
import dev.kopek.money.PrefixedId;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The API shapes of ledger objects. Amounts are integers in minor units, as everywhere. */
final class LedgerJson {

    private LedgerJson() {}

    static Map<String, Object> transaction(LedgerTransaction tx) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", tx.publicId());
        json.put("object", "ledger_transaction");
        json.put("kind", tx.kind().toLowerCase(Locale.ROOT));
        json.put("payment_id", tx.paymentId() == null ? null : new PaymentId(tx.paymentId()).toString());
        json.put("amount", tx.amountMinor());
        json.put("currency", tx.currency());
        json.put(
                "reverses",
                tx.reverses() == null ? null : PrefixedId.format(LedgerTransaction.ID_PREFIX, tx.reverses()));
        json.put("reason", tx.reason());
        json.put("occurred_at", tx.occurredAt().toString());
        json.put("recorded_at", tx.recordedAt().toString());
        json.put("entries", tx.entries().stream().map(LedgerJson::entry).toList());
        return json;
    }

    private static Map<String, Object> entry(LedgerEntry entry) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("line", entry.line());
        json.put("account", entry.account().code());
        json.put("owner", entry.account().owner() == AccountType.Owner.PLATFORM ? "platform" : "merchant");
        json.put("side", entry.side().code());
        json.put("amount", entry.amountMinor());
        json.put("currency", entry.currency());
        return json;
    }

    static Map<String, Object> fee(Fee fee) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("object", "fee");
        json.put("merchant", fee.merchant().toString());
        json.put("currency", fee.currency());
        json.put("bps", fee.rule().bps());
        json.put("fixed_minor", fee.rule().fixedMinor());
        json.put("updated_at", fee.updatedAt().toString());
        return json;
    }

    static Map<String, Object> amount(long minor, String currency) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("amount", minor);
        json.put("currency", currency);
        return json;
    }
}
