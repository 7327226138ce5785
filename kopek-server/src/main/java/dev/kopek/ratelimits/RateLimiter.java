package dev.kopek.ratelimits;

import dev.kopek.money.MerchantId;
import dev.kopek.platform.ConnectionWait;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Service;

/**
 * Decides whether one merchant request may run: one token from the merchant's bucket of its kind and one from a
 * random shard of the global bucket. The buckets live in the database, so every instance draws from the same
 * ones; an instance draws a few tokens at a time (one SQL statement, no transaction beyond it, no connection held
 * afterwards) and spends them here until they run out or are {@link #LEASE} old, when the rest are dropped. A
 * draw takes at most a twentieth of a second of the bucket's rate and at most {@link #MOST_PER_DRAW}, so a merchant
 * at 50 writes/s draws 2 at a time and one at 1 write/s draws exactly one: each instance may admit up to that many
 * beyond what the buckets show, never more than they held. Counts refusals per merchant.
 */
@Service
@EnableConfigurationProperties(RateLimitProperties.class)
public class RateLimiter {

    private static final long MAX_RETRY_AFTER_SECONDS = 3600;
    /** How long tokens drawn ahead stay spendable here. */
    static final Duration LEASE = Duration.ofMillis(250);
    /** The most tokens one draw takes from the database. */
    static final int MOST_PER_DRAW = 100;
    /** Leases are forgotten when this many merchant-and-kind pairs are held (a bound, not a cache policy). */
    private static final int MAX_LEASES = 100_000;

    private final BucketStore buckets;
    private final RateLimitProperties properties;
    private final MeterRegistry meters;
    private final Clock clock;
    private final ConnectionWait connectionWait;
    private final Map<String, Lease> leases = new ConcurrentHashMap<>();

    RateLimiter(
            BucketStore buckets,
            RateLimitProperties properties,
            MeterRegistry meters,
            Clock clock,
            ConnectionWait connectionWait) {
        this.buckets = buckets;
        this.properties = properties;
        this.meters = meters;
        this.clock = clock;
        this.connectionWait = connectionWait;
    }

    /** The answer for one request. */
    public sealed interface Decision {
        record Granted() implements Decision {}

        /** @param scope {@code merchant} or {@code global}: whose bucket was empty */
        record Limited(long retryAfterSeconds, String scope) implements Decision {}
    }

    public Decision take(MerchantId merchant, Kind kind) {
        if (!properties.enabled()) {
            return new Decision.Granted();
        }
        Lease lease = lease(merchant, kind);
        Decision decision;
        lease.lock.lock();
        try {
            Instant now = clock.instant();
            if (lease.spend(now)) {
                return new Decision.Granted();
            }
            // A write may be a payment: its token waits for a connection like the payment's own transactions do.
            decision = kind == Kind.WRITE
                    ? connectionWait.patiently(() -> draw(merchant, kind, lease, now))
                    : draw(merchant, kind, lease, now);
        } finally {
            lease.lock.unlock();
        }
        if (decision instanceof Decision.Limited limited) {
            refusals(merchant, kind, limited.scope()).increment();
        }
        return decision;
    }

    private Lease lease(MerchantId merchant, Kind kind) {
        if (leases.size() >= MAX_LEASES) {
            leases.clear();
        }
        return leases.computeIfAbsent(kind.label() + ":" + merchant.value(), k -> new Lease());
    }

    private Decision draw(MerchantId merchant, Kind kind, Lease lease, Instant now) {
        String mine = kind.label() + ":m:" + merchant.value();
        String global = kind.label() + ":g:" + ThreadLocalRandom.current().nextInt(properties.globalShards());
        Limit merchantDefault = properties.merchantDefault(kind);
        Limit globalShare = properties.globalShare(kind);
        List<BucketStore.Taken> taken =
                buckets.take(mine, merchant, kind, merchantDefault, global, globalShare, MOST_PER_DRAW, now);
        if (taken.size() < 2) {
            // First request of this merchant (or shard) ever: create the rows full and ask again.
            int merchantBurst =
                    buckets.override(merchant, kind).orElse(merchantDefault).burst();
            buckets.createFull(List.of(mine, global), List.of(merchantBurst, globalShare.burst()), now);
            taken = buckets.take(mine, merchant, kind, merchantDefault, global, globalShare, MOST_PER_DRAW, now);
        }
        Decision decision = decide(taken, mine);
        if (decision instanceof Decision.Granted) {
            lease.drawn(taken.getFirst().granted() - 1, now);
        }
        return decision;
    }

    private static Decision decide(List<BucketStore.Taken> taken, String mine) {
        if (taken.size() == 2 && taken.getFirst().granted() >= 1) {
            return new Decision.Granted();
        }
        long retryAfter = 1;
        String scope = "global";
        for (BucketStore.Taken bucket : taken) {
            if (bucket.available() < 1) {
                long seconds = (long) Math.ceil((1 - bucket.available()) / bucket.perSecond());
                retryAfter = Math.max(retryAfter, Math.min(seconds, MAX_RETRY_AFTER_SECONDS));
                if (bucket.bucket().equals(mine)) {
                    scope = "merchant";
                }
            }
        }
        return new Decision.Limited(retryAfter, scope);
    }

    private Counter refusals(MerchantId merchant, Kind kind, String scope) {
        return Counter.builder("kopek.rate_limit.refusals")
                .description("requests refused with 429 rate_limited")
                .tag("merchant", merchant.toString())
                .tag("kind", kind.label())
                .tag("scope", scope)
                .register(meters);
    }

    /** The limit a merchant gets for a kind: its override, or the default. */
    public Limit limitOf(MerchantId merchant, Kind kind) {
        return buckets.override(merchant, kind).orElse(properties.merchantDefault(kind));
    }

    public boolean hasOverride(MerchantId merchant, Kind kind) {
        return buckets.override(merchant, kind).isPresent();
    }

    /**
     * An admin's change; {@code limit} null returns the merchant to the default. Tokens this instance drew ahead are
     * dropped; another instance's run out within {@link #LEASE}.
     */
    public void setLimit(MerchantId merchant, Kind kind, Limit limit, String by) {
        if (limit == null) {
            buckets.clearOverride(merchant, kind);
        } else {
            buckets.setOverride(merchant, kind, limit, by, clock.instant());
        }
        leases.remove(kind.label() + ":" + merchant.value());
    }

    /** Tokens drawn ahead for one merchant and kind, spent by this instance alone. */
    private static final class Lease {
        private final ReentrantLock lock = new ReentrantLock();
        private int tokens;
        private Instant drawnAt = Instant.EPOCH;

        /** Spends one token drawn ahead, if one is left and it is not stale (nor from a clock that went back). */
        boolean spend(Instant now) {
            if (tokens <= 0 || now.isBefore(drawnAt) || !now.isBefore(drawnAt.plus(LEASE))) {
                tokens = 0;
                return false;
            }
            tokens--;
            return true;
        }

        void drawn(int left, Instant now) {
            tokens = left;
            drawnAt = now;
        }
    }
}
