package dev.kopek.client;

import java.time.Duration;
import java.util.Objects;

/**
 * How long and how often one operation is retried with its one key: exponential backoff with full jitter
 * ({@code initialBackoff · 2^n}, capped at {@code maxBackoff}), and never past {@code totalBudget} from the first
 * try: the budget is a hard limit on the whole call, tries and waits included (a try that hangs is cut off when the
 * budget ends, whatever the request timeout). A {@code Retry-After} from Kopek is honoured when it is longer than
 * the backoff.
 */
public record RetryPolicy(Duration totalBudget, Duration initialBackoff, Duration maxBackoff, int maxAttempts) {

    public static final RetryPolicy DEFAULT =
            new RetryPolicy(Duration.ofSeconds(30), Duration.ofMillis(200), Duration.ofSeconds(5), 10);
    /** One try of at most 30 s, no retry: for callers that run their own retry loop (with the same key). */
    public static final RetryPolicy NONE = new RetryPolicy(Duration.ofSeconds(30), Duration.ZERO, Duration.ZERO, 1);

    public RetryPolicy {
        Objects.requireNonNull(totalBudget, "totalBudget");
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        if (maxAttempts < 1
                || !totalBudget.isPositive()
                || initialBackoff.isNegative()
                || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("a retry policy needs maxAttempts >= 1, a positive budget, "
                    + "non-negative backoffs and maxBackoff >= initialBackoff");
        }
    }

    /** The upper bound of the jittered wait before try {@code attempt + 1} ({@code attempt} counts from 1). */
    long ceilingMillis(int attempt) {
        long initial = initialBackoff.toMillis();
        int doublings = Math.min(attempt - 1, 30);
        long grown = initial > (Long.MAX_VALUE >> doublings) ? Long.MAX_VALUE : initial << doublings;
        return Math.min(grown, maxBackoff.toMillis());
    }
}
