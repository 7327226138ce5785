package dev.kopek.simulator;

import java.time.LocalDate;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One line of a daily settlement file. Amounts are positive minor units; the type says the direction.
 *
 * @param pspReference the id of what settled: a charge ({@code ch_…}, captured when made), a capture
 *                     ({@code cap_…}), a refund ({@code re_…}) or a dispute ({@code dp_…}); a fee row
 *                     carries the reference of the charge or capture it was taken from
 * @param type         {@code charge}, {@code fee}, {@code refund}, {@code chargeback} or
 *                     {@code chargeback_reversal} (an injected extra row may use any type)
 */
public record SettlementRow(String pspReference, String type, long amount, String currency, LocalDate valueDate) {

    /** Printable ASCII without comma, quote or space, so a row never needs CSV quoting. */
    private static final Pattern FIELD = Pattern.compile("[!#-+\\--~]+");

    private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");

    public SettlementRow {
        requireField("psp_reference", pspReference);
        requireField("type", type);
        if (currency == null || !CURRENCY.matcher(currency).matches()) {
            throw new IllegalArgumentException("currency must be three upper-case letters");
        }
        Objects.requireNonNull(valueDate, "value_date");
    }

    private static void requireField(String name, String value) {
        if (value == null || !FIELD.matcher(value).matches()) {
            throw new IllegalArgumentException(name + " must be printable ASCII without spaces, commas or quotes");
        }
    }

    SettlementRow withAmount(long newAmount) {
        return new SettlementRow(pspReference, type, newAmount, currency, valueDate);
    }

    SettlementRow withValueDate(LocalDate date) {
        return new SettlementRow(pspReference, type, amount, currency, date);
    }

    String csv() {
        return pspReference + "," + type + "," + amount + "," + currency + "," + valueDate;
    }
}
