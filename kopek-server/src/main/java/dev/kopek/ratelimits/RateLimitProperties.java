package dev.kopek.ratelimits;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code kopek.rate-limits.*}. A bucket holds at most {@code burst} tokens and refills at {@code per-second}; a
 * request takes one token from its merchant's bucket and one from the global bucket of its kind, or none when
 * either is empty. The merchant figures are defaults an admin can override per merchant.
 *
 * @param enabled off only to measure the bare payment path
 * @param globalShards rows each global bucket is split over (each holds 1/n of its rate and burst), so that no
 *     single row serialises every request of every instance
 */
@ConfigurationProperties("kopek.rate-limits")
public record RateLimitProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("50") double writesPerSecond,
        @DefaultValue("100") int writesBurst,
        @DefaultValue("200") double readsPerSecond,
        @DefaultValue("400") int readsBurst,
        @DefaultValue("1000") double globalWritesPerSecond,
        @DefaultValue("2000") int globalWritesBurst,
        @DefaultValue("4000") double globalReadsPerSecond,
        @DefaultValue("8000") int globalReadsBurst,
        @DefaultValue("8") int globalShards) {

    public RateLimitProperties {
        new Limit(writesPerSecond, writesBurst);
        new Limit(readsPerSecond, readsBurst);
        new Limit(globalWritesPerSecond, globalWritesBurst);
        new Limit(globalReadsPerSecond, globalReadsBurst);
        if (globalShards < 1 || globalShards > 64) {
            throw new IllegalArgumentException("kopek.rate-limits.global-shards must be 1..64");
        }
    }

    /** The default limit of one merchant for one kind of request. */
    public Limit merchantDefault(Kind kind) {
        return kind == Kind.WRITE ? new Limit(writesPerSecond, writesBurst) : new Limit(readsPerSecond, readsBurst);
    }

    /** The limit of one shard of the global bucket of this kind. */
    Limit globalShare(Kind kind) {
        Limit global = kind == Kind.WRITE
                ? new Limit(globalWritesPerSecond, globalWritesBurst)
                : new Limit(globalReadsPerSecond, globalReadsBurst);
        return new Limit(global.perSecond() / globalShards, (global.burst() + globalShards - 1) / globalShards);
    }
}
