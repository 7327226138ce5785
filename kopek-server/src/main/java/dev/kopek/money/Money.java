package dev.kopek.money;

import java.util.Objects;

/** An amount in minor units of one currency. Arithmetic is exact; mixing currencies is a bug and throws. */
public record Money(long minor, CurrencyCode currency) {

    public Money {
        Objects.requireNonNull(currency, "currency");
        if (minor < 0) {
            throw new IllegalArgumentException("money is never negative: " + minor);
        }
    }

    public static Money of(long minor, String currency) {
        return new Money(minor, CurrencyCode.of(currency));
    }

    public Money plus(Money other) {
        return new Money(Math.addExact(minor, sameCurrency(other).minor), currency);
    }

    public Money minus(Money other) {
        return new Money(Math.subtractExact(minor, sameCurrency(other).minor), currency);
    }

    public boolean isPositive() {
        return minor > 0;
    }

    private Money sameCurrency(Money other) {
        if (!currency.equals(other.currency)) {
            throw new IllegalArgumentException("cannot mix " + currency + " and " + other.currency);
        }
        return other;
    }

    @Override
    public String toString() {
        return minor + " " + currency + " (minor units)";
    }
}
