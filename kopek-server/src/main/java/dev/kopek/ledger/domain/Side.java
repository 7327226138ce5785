package dev.kopek.ledger.domain;

import java.util.Locale;

/** The side of an entry. Amounts are always positive; the side says which way they move an account. */
public enum Side {
    DEBIT,
    CREDIT;

    public Side opposite() {
        return this == DEBIT ? CREDIT : DEBIT;
    }

    /** As stored and as the API shows it: {@code debit}, {@code credit}. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Side ofCode(String code) {
        return valueOf(code.toUpperCase(Locale.ROOT));
    }
}
