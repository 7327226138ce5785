package dev.kopek.ratelimits;

/** A token bucket's shape: refills {@code perSecond} tokens a second, holds at most {@code burst}. */
public record Limit(double perSecond, int burst) {

    public static final double MAX_PER_SECOND = 1_000_000;
    public static final int MAX_BURST = 10_000_000;

    public Limit {
        if (!(perSecond > 0 && perSecond <= MAX_PER_SECOND) || burst < 1 || burst > MAX_BURST) {
            throw new IllegalArgumentException("a rate limit needs 0 < per-second <= 1000000 and 1 <= burst <= "
                    + "10000000, was " + perSecond + "/s burst " + burst);
        }
    }
}
