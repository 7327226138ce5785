package dev.kopek.ratelimits;

import dev.kopek.money.MerchantId;
import dev.kopek.platform.ConnectionWait;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Service;

/**
 * Decides whether one merchant request may run: one token from the merchant's bucket of its kind and one from a
 * random shard of the global bucket, in one SQL statement (no transaction of its own beyond the statement, no
 * connection held afterwards). Counts refusals per merchant.
 */
@Service
@EnableConfigurationProperties(RateLimitProperties.class)
public class RateLimiter {

    private static final long MAX_RETRY_AFTER_SECONDS = 3600;

    private final BucketStore buckets;
    private final RateLimitProperties properties;
    private final MeterRegistry meters;
    private final Clock clock;
    private final ConnectionWait connectionWait;

    RateLimiter(BucketStore buckets, RateLimitProperties properties, MeterRegistry meters, Clock clock,
            ConnectionWait connectionWait) {
        this.buckets = buckets;
        this.properties = properties;
        this.meters = meters;
        this.clock = clock;
        this.connectionWait = connectionWait;
    }

    /** The answer for one request. */
    public sealed interface Decision {
        record Granted() implements Decision {
        }

        /** @param scope {@code merchant} or {@code global}: whose bucket was empty */
        record Limited(long retryAfterSeconds, String scope) implements Decision {
        }
    }

    public Decision take(MerchantId merchant, Kind kind) {
        if (!properties.enabled()) {
            return new Decision.Granted();
        }
        // A write may be a payment: its token waits for a connection like the payment's own transactions do.
        Decision decision = kind == Kind.WRITE ? connectionWait.patiently(() -> draw(merchant, kind))
                : draw(merchant, kind);
        if (decision instanceof Decision.Limited limited) {
            refusals(merchant, kind, limited.scope()).increment();
        }
        return decision;
    }

    private Decision draw(MerchantId merchant, Kind kind) {
        Instant now = clock.instant();
        String mine = kind.label() + ":m:" + merchant.value();
        String global = kind.label() + ":g:" + ThreadLocalRandom.current().nextInt(properties.globalShards());
        Limit merchantDefault = properties.merchantDefault(kind);
        Limit globalShare = properties.globalShare(kind);
        List<BucketStore.Taken> taken = buckets.take(mine, merchant, kind, merchantDefault, global, globalShare, now);
        if (taken.size() < 2) {
            // First request of this merchant (or shard) ever: create the rows full and ask again.
            int merchantBurst = buckets.override(merchant, kind).orElse(merchantDefault).burst();
            buckets.createFull(List.of(mine, global), List.of(merchantBurst, globalShare.burst()), now);
            taken = buckets.take(mine, merchant, kind, merchantDefault, global, globalShare, now);
        }
        return decide(taken, mine);
    }

    private static Decision decide(List<BucketStore.Taken> taken, String mine) {
        if (taken.size() == 2 && taken.getFirst().granted()) {
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
        return Counter.builder("kopek.rate_limit.refusals").description("requests refused with 429 rate_limited")
                .tag("merchant", merchant.toString()).tag("kind", kind.label()).tag("scope", scope)
                .register(meters);
    }

    /** The limit a merchant gets for a kind: its override, or the default. */
    public Limit limitOf(MerchantId merchant, Kind kind) {
        return buckets.override(merchant, kind).orElse(properties.merchantDefault(kind));
    }

    public boolean hasOverride(MerchantId merchant, Kind kind) {
        return buckets.override(merchant, kind).isPresent();
    }

    /** An admin's change; {@code limit} null returns the merchant to the default. */
    public void setLimit(MerchantId merchant, Kind kind, Limit limit, String by) {
        if (limit == null) {
            buckets.clearOverride(merchant, kind);
        } else {
            buckets.setOverride(merchant, kind, limit, by, clock.instant());
        }
    }
}
