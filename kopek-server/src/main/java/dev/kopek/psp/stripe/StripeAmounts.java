package dev.kopek.psp.stripe;

import dev.kopek.money.CurrencyCode;
import dev.kopek.money.Money;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Kopek's minor units (ISO 4217 exponents) to Stripe's amounts and back: the only place amounts change shape.
 * Stripe counts zero-decimal currencies (JPY, KRW, …) in whole units, three-decimal ones (BHD, JOD, KWD, OMR,
 * TND) in thousandths whose last digit must be 0, ISK in hundredths although ISO gives it no minor unit, and every
 * other currency in hundredths. An amount Stripe cannot represent exactly is refused, never rounded.
 */
final class StripeAmounts {

    private static final Set<String> ZERO_DECIMAL = Set.of(
            "BIF", "CLP", "DJF", "GNF", "JPY", "KMF", "KRW", "MGA", "PYG", "RWF", "UGX", "VND", "VUV", "XAF", "XOF",
            "XPF");
    private static final Set<String> THREE_DECIMAL = Set.of("BHD", "JOD", "KWD", "OMR", "TND");

    private StripeAmounts() {}

    /** Stripe's exponent for a currency (not always ISO's). */
    static int stripeExponent(CurrencyCode currency) {
        if (ZERO_DECIMAL.contains(currency.code())) {
            return 0;
        }
        return THREE_DECIMAL.contains(currency.code()) ? 3 : 2;
    }

    /** The amount in Stripe's units, or empty where Stripe cannot carry it exactly. */
    static OptionalLong toStripe(Money money) {
        int shift = stripeExponent(money.currency()) - money.currency().exponent();
        long amount = money.minor();
        for (int i = 0; i < shift; i++) {
            amount = Math.multiplyExact(amount, 10);
        }
        for (int i = 0; i > shift; i--) {
            if (amount % 10 != 0) {
                return OptionalLong.empty();
            }
            amount /= 10;
        }
        if (THREE_DECIMAL.contains(money.currency().code()) && amount % 10 != 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(amount);
    }

    /** Stripe's amount in Kopek's minor units, or empty where it is not a whole number of them. */
    static OptionalLong fromStripe(long amount, CurrencyCode currency) {
        int shift = currency.exponent() - stripeExponent(currency);
        long minor = amount;
        for (int i = 0; i < shift; i++) {
            minor = Math.multiplyExact(minor, 10);
        }
        for (int i = 0; i > shift; i--) {
            if (minor % 10 != 0) {
                return OptionalLong.empty();
            }
            minor /= 10;
        }
        return OptionalLong.of(minor);
    }

    /** Stripe spells currencies in lower case. */
    static String currency(CurrencyCode currency) {
        return currency.code().toLowerCase(Locale.ROOT);
    }
}
