package dev.kopek.money;

import java.util.Currency;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An ISO 4217 currency whose minor-unit exponent is known. Codes without an exponent (XXX, XTS, gold)
 * are refused: an amount in minor units means nothing without it.
 */
public record CurrencyCode(String code, int exponent) {

    private static final Pattern SHAPE = Pattern.compile("[A-Z]{3}");

    public CurrencyCode {
        if (code == null || !SHAPE.matcher(code).matches()) {
            throw new IllegalArgumentException("currency must be three upper-case letters");
        }
        if (exponent < 0 || exponent > 4) {
            throw new IllegalArgumentException("currency exponent out of range: " + exponent);
        }
    }

    public static Optional<CurrencyCode> parse(String code) {
        if (code == null || !SHAPE.matcher(code).matches()) {
            return Optional.empty();
        }
        try {
            int digits = Currency.getInstance(code).getDefaultFractionDigits();
            return digits < 0 ? Optional.empty() : Optional.of(new CurrencyCode(code, digits));
        } catch (IllegalArgumentException unknown) {
            return Optional.empty();
        }
    }

    public static CurrencyCode of(String code) {
        return parse(code).orElseThrow(() -> new IllegalArgumentException("unknown currency " + code));
    }

    @Override
    public String toString() {
        return code;
    }
}
