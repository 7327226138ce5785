package dev.kopek.psp;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Objects;

/**
 * One line of a PSP's daily settlement report. Amounts are positive minor units; {@code type} gives the
 * direction: {@code charge}, {@code refund}, {@code fee}, {@code chargeback}, {@code chargeback_reversal}. The amount
 * and currency are the movement's as presented to the customer (what Kopek holds and matches); {@code settled} is what
 * the PSP settled in its account's currency when that is another one, else null.
 */
public record SettlementRow(
        String pspReference, String type, long amountMinor, String currency, LocalDate valueDate, Settled settled) {

    /**
     * What the PSP settled, in its account's currency, and the rate it converted at ({@code amount × exchangeRate} is
     * the settled amount; null where the PSP gives none). A rate is no amount of money: it stays the PSP's decimal.
     */
    public record Settled(long amountMinor, String currency, BigDecimal exchangeRate) {
        public Settled {
            Objects.requireNonNull(currency, "currency");
            if (amountMinor < 0 || (exchangeRate != null && exchangeRate.signum() <= 0)) {
                throw new IllegalArgumentException("a settled amount is positive, and so is its rate");
            }
        }
    }

    public SettlementRow {
        Objects.requireNonNull(pspReference, "pspReference");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(currency, "currency");
        Objects.requireNonNull(valueDate, "valueDate");
        if (amountMinor < 0) {
            throw new IllegalArgumentException("settlement amounts are positive; the type gives the direction");
        }
    }

    /** A row settled as presented: nothing was converted. */
    public SettlementRow(String pspReference, String type, long amountMinor, String currency, LocalDate valueDate) {
        this(pspReference, type, amountMinor, currency, valueDate, null);
    }
}
