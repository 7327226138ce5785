package dev.kopek.ledger.domain;

/**
 * A merchant's fee on each capture: {@code bps} basis points of the captured amount plus {@code fixedMinor}.
 *
 * <p>The one rounding rule: the basis-point part is rounded half up to a whole minor unit (exactly, in integers:
 * {@code floor((amount × bps + 5000) / 10000)}), the fixed part is added, and the fee never exceeds the captured
 * amount. Each capture pays its own fee, fixed part included; a refund does not give the fee back.
 */
public record FeeRule(int bps, long fixedMinor) {

    public static final int MAX_BPS = 10_000;
    public static final long MAX_FIXED_MINOR = 1_000_000_000_000L;
    public static final FeeRule NONE = new FeeRule(0, 0);
    private static final long BPS_PER_UNIT = 10_000;

    public FeeRule {
        if (bps < 0 || bps > MAX_BPS) {
            throw new IllegalArgumentException("bps must be 0–" + MAX_BPS + ", was " + bps);
        }
        if (fixedMinor < 0 || fixedMinor > MAX_FIXED_MINOR) {
            throw new IllegalArgumentException("fixed fee must be 0–" + MAX_FIXED_MINOR + ", was " + fixedMinor);
        }
    }

    public long feeFor(long amountMinor) {
        if (amountMinor <= 0) {
            throw new IllegalArgumentException("a fee is taken on a positive amount, was " + amountMinor);
        }
        // amount × bps / 10000 split as q × bps + r × bps / 10000, so nothing overflows for any long amount.
        long whole = amountMinor / BPS_PER_UNIT;
        long rest = amountMinor % BPS_PER_UNIT;
        long proportional =
                Math.addExact(Math.multiplyExact(whole, bps), (rest * bps + BPS_PER_UNIT / 2) / BPS_PER_UNIT);
        long room = amountMinor - proportional;
        return room <= fixedMinor ? amountMinor : proportional + fixedMinor;
    }

    /**
     * {@link #feeFor} as an SQL expression over the bigint expressions {@code amount}, {@code bps} and {@code fixed},
     * for a statement that computes a capture's fee where it posts it; written beside the Java so that the two stay
     * one rule ({@code FeeRuleSqlTest} checks that they agree).
     */
    public static String inSql(String amount, String bps, String fixed) {
        String proportional =
                "((%1$s) / 10000 * (%2$s) + ((%1$s) %% 10000 * (%2$s) + 5000) / 10000)".formatted(amount, bps);
        return "(CASE WHEN (%1$s) - %2$s <= (%3$s) THEN (%1$s) ELSE %2$s + (%3$s) END)"
                .formatted(amount, proportional, fixed);
    }
}
