package dev.kopek.ledger.domain;

import java.util.ArrayList;
import java.util.List;

/**
 * The entries of one journal transaction in one currency, checked the way PostgreSQL will check them at commit:
 * at least two entries, debits equal to credits. Building an unbalanced posting is a bug and throws here, before
 * the database has to refuse it.
 */
public record Posting(List<Line> lines) {

    /** A posting is small; the schema numbers lines 1–64. */
    public static final int MAX_LINES = 16;

    public Posting {
        lines = List.copyOf(lines);
        if (lines.size() < 2 || lines.size() > MAX_LINES) {
            throw new IllegalArgumentException("a posting has 2–" + MAX_LINES + " entries, not " + lines.size());
        }
        long debits = 0;
        long credits = 0;
        for (Line line : lines) {
            if (line.side() == Side.DEBIT) {
                debits = Math.addExact(debits, line.amountMinor());
            } else {
                credits = Math.addExact(credits, line.amountMinor());
            }
        }
        if (debits != credits) {
            throw new IllegalArgumentException("unbalanced posting: debits " + debits + " ≠ credits " + credits);
        }
    }

    public Posting reversed() {
        return new Posting(lines.stream().map(Line::reversed).toList());
    }

    /** Collects lines, leaving out zero amounts (a capture without a fee has no revenue line). */
    public static final class Builder {
        private final List<Line> lines = new ArrayList<>();

        public Builder debit(AccountType account, long amountMinor) {
            return add(account, Side.DEBIT, amountMinor);
        }

        public Builder credit(AccountType account, long amountMinor) {
            return add(account, Side.CREDIT, amountMinor);
        }

        public boolean isEmpty() {
            return lines.isEmpty();
        }

        public Builder add(AccountType account, Side side, long amountMinor) {
            if (amountMinor < 0) {
                throw new IllegalArgumentException("negative amount " + amountMinor + " for " + account);
            }
            if (amountMinor > 0) {
                lines.add(new Line(account, side, amountMinor));
            }
            return this;
        }

        public Posting build() {
            return new Posting(lines);
        }
    }
}
