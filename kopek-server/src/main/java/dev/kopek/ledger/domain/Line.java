package dev.kopek.ledger.domain;

import java.util.Objects;

/** An entry of a posting before it is written: an account of the merchant or the platform, a side, an amount. */
public record Line(AccountType account, Side side, long amountMinor) {

    public Line {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(side, "side");
        if (amountMinor <= 0) {
            throw new IllegalArgumentException("an entry is for a positive amount, was " + amountMinor);
        }
    }

    public Line reversed() {
        return new Line(account, side.opposite(), amountMinor);
    }
}
