package dev.kopek.psp;

import java.time.LocalDate;
import java.util.Objects;

/**
 * One line of a PSP's daily settlement report. Amounts are positive minor units; {@code type} gives the
 * direction: {@code charge}, {@code refund}, {@code fee}, {@code chargeback}, {@code chargeback_reversal}.
 */
public record SettlementRow(String pspReference, String type, long amountMinor, String currency, LocalDate valueDate) {
    public SettlementRow {
        Objects.requireNonNull(pspReference, "pspReference");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(currency, "currency");
        Objects.requireNonNull(valueDate, "valueDate");
        if (amountMinor < 0) {
            throw new IllegalArgumentException("settlement amounts are positive; the type gives the direction");
        }
    }
}
