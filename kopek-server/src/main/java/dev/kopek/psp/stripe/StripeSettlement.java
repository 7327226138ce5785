package dev.kopek.psp.stripe;

import dev.kopek.money.CurrencyCode;
import dev.kopek.psp.SettlementReport;
import dev.kopek.psp.SettlementRow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import tools.jackson.databind.JsonNode;

/**
 * The settlement source for one UTC date: Stripe's balance transactions created that day, with their sources
 * expanded. A charge settles under its PaymentIntent's id (the reference Kopek holds), a refund under its id, a
 * dispute's withdrawal and reinstatement under the dispute's id; Stripe's fee on a transaction is its own
 * {@code fee} row. Payouts and other balance movements are not Kopek's and are left out.
 *
 * <p>A balance transaction is in the account's settlement currency. Where Stripe converted (its {@code exchange_rate}
 * is set), the row carries the source's own amount and currency, as the customer was charged and as Kopek holds the
 * payment, and the settled amount, currency and rate beside it; matching the settled figures against Kopek's made
 * every payment in another currency a break (issue 24, defect 4). A charge's amount is what was captured of it. The
 * fee is Stripe's, in the settlement currency.
 */
final class StripeSettlement {

    private static final int PAGE = 100;
    private static final int MAX_PAGES = 1_000;

    @FunctionalInterface
    interface Get {
        HttpResponse<String> get(String pathAndQuery) throws IOException;
    }

    private final Get http;

    StripeSettlement(Get http) {
        this.http = http;
    }

    SettlementReport report(String provider, LocalDate date) {
        long from = date.atStartOfDay(ZoneOffset.UTC).toEpochSecond();
        long to = date.plusDays(1).atStartOfDay(ZoneOffset.UTC).toEpochSecond();
        List<SettlementRow> rows = new ArrayList<>();
        StringBuilder raw = new StringBuilder();
        String after = null;
        for (int page = 0; page < MAX_PAGES; page++) {
            JsonNode list = fetch(from, to, after, date);
            raw.append(list).append('\n');
            for (JsonNode txn : list.path("data")) {
                rows.addAll(rows(txn, date));
                after = StripeResponses.text(txn, "id");
            }
            if (!list.path("has_more").asBoolean(false) || after == null) {
                return new SettlementReport(provider, date, raw.toString(), rows);
            }
        }
        throw new IllegalStateException("balance transactions of " + date + " exceed " + MAX_PAGES + " pages");
    }

    private JsonNode fetch(long from, long to, String after, LocalDate date) {
        String query = "/v1/balance_transactions?limit=" + PAGE + "&created[gte]=" + from + "&created[lt]=" + to
                + "&expand[]=data.source" + (after == null ? "" : "&starting_after=" + Form.encode(after));
        try {
            HttpResponse<String> response = http.get(query);
            if (response.statusCode() != 200) {
                throw new IllegalStateException(
                        "balance transactions of " + date + " answered " + response.statusCode());
            }
            return StripeResponses.parse(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("balance transactions of " + date + " could not be fetched", e);
        }
    }

    static List<SettlementRow> rows(JsonNode txn, LocalDate date) {
        String type = String.valueOf(StripeResponses.text(txn, "type"));
        JsonNode source = txn.path("source");
        String sourceId = source.isString() ? source.stringValue() : StripeResponses.text(source, "id");
        String currency = String.valueOf(StripeResponses.text(txn, "currency")).toUpperCase(Locale.ROOT);
        long amount = txn.path("amount").asLong(0);
        String kopekType = switch (type) {
            case "charge", "payment" -> "charge";
            case "refund", "payment_refund" -> "refund";
            case "adjustment" ->
                sourceId != null && sourceId.startsWith("dp_")
                        ? amount < 0 ? "chargeback" : "chargeback_reversal"
                        : null;
            default -> null;
        };
        if (kopekType == null || sourceId == null) {
            return List.of();
        }
        String reference = kopekType.equals("charge") && StripeResponses.text(source, "payment_intent") != null
                ? StripeResponses.text(source, "payment_intent")
                : sourceId;
        CurrencyCode code = CurrencyCode.of(currency);
        List<SettlementRow> rows = new ArrayList<>();
        if (converted(txn, source)) {
            String presented =
                    String.valueOf(StripeResponses.text(source, "currency")).toUpperCase(Locale.ROOT);
            rows.add(new SettlementRow(
                    reference,
                    kopekType,
                    minor(presentedAmount(kopekType, source), CurrencyCode.of(presented)),
                    presented,
                    date,
                    new SettlementRow.Settled(
                            minor(Math.abs(amount), code),
                            currency,
                            txn.path("exchange_rate").decimalValue())));
        } else {
            rows.add(new SettlementRow(reference, kopekType, minor(Math.abs(amount), code), currency, date));
        }
        long fee = txn.path("fee").asLong(0);
        if (fee > 0) {
            rows.add(new SettlementRow(StripeResponses.text(txn, "id"), "fee", minor(fee, code), currency, date));
        }
        return rows;
    }

    /** Stripe converted: it gives the rate, and the source, expanded, names its own currency. */
    private static boolean converted(JsonNode txn, JsonNode source) {
        return txn.path("exchange_rate").isNumber() && StripeResponses.text(source, "currency") != null;
    }

    /** The source's amount as the customer was charged: what was captured of a charge; a refund's, a dispute's. */
    private static long presentedAmount(String kopekType, JsonNode source) {
        JsonNode captured = source.path("amount_captured");
        return kopekType.equals("charge") && captured.isIntegralNumber() && captured.longValue() > 0
                ? captured.longValue()
                : Math.abs(source.path("amount").asLong(0));
    }

    private static long minor(long stripeAmount, CurrencyCode currency) {
        OptionalLong minor = StripeAmounts.fromStripe(stripeAmount, currency);
        if (minor.isEmpty()) {
            throw new IllegalArgumentException("a balance transaction of " + stripeAmount + " " + currency
                    + " is not a whole number of minor units");
        }
        return minor.getAsLong();
    }
}
