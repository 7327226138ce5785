package dev.kopek.platform;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;

/**
 * The recovery metrics docs/design.md names, one spelling for every kind of operation ({@code payment},
 * {@code capture}, {@code void}, {@code refund}): key reclaims, stale-attempt rejections, and the time from an
 * owner's lease expiring to the operation's final state. Registered for every kind up front, so a scrape shows
 * zeros rather than missing series.
 */
public final class RecoveryMeters {

    private static final Duration[] BUCKETS = {
        Duration.ofSeconds(1),
        Duration.ofSeconds(5),
        Duration.ofSeconds(15),
        Duration.ofSeconds(30),
        Duration.ofMinutes(1),
        Duration.ofMinutes(2),
        Duration.ofMinutes(5),
        Duration.ofMinutes(15),
        Duration.ofHours(1),
        Duration.ofHours(6),
        Duration.ofHours(24)
    };

    public static final List<String> KINDS = List.of("payment", "capture", "void", "refund");

    private RecoveryMeters() {}

    public static void registerAll(MeterRegistry meters) {
        for (String kind : KINDS) {
            meters.counter("kopek.idempotency.reclaims", "kind", kind);
            meters.counter("kopek.idempotency.stale_attempt_rejections", "kind", kind);
            leaseTimer(meters, kind);
        }
    }

    /** An expired owner's work taken over (attempt + 1) by a client retry or the reconciler. */
    public static void reclaimed(MeterRegistry meters, String kind) {
        meters.counter("kopek.idempotency.reclaims", "kind", kind).increment();
    }

    /** A write by an owner that no longer holds the key (its attempt number is stale) was refused (L4). */
    public static void staleRejected(MeterRegistry meters, String kind) {
        meters.counter("kopek.idempotency.stale_attempt_rejections", "kind", kind)
                .increment();
    }

    /** A taken-over operation reached its final state this long after the previous owner's lease expired. */
    public static void leaseExpiryToFinal(MeterRegistry meters, String kind, Duration sinceExpiry) {
        leaseTimer(meters, kind).record(sinceExpiry.isNegative() ? Duration.ZERO : sinceExpiry);
    }

    /** The kind of operation an idempotency key space belongs to. */
    public static String kindOfKeySpace(String operation) {
        int dot = operation.indexOf('.');
        String head = dot < 0 ? operation : operation.substring(0, dot);
        return switch (head) {
            case "payment" -> "payment";
            case "refund" -> "refund";
            default -> operation.contains("capture") ? "capture" : operation.contains("void") ? "void" : head;
        };
    }

    private static Timer leaseTimer(MeterRegistry meters, String kind) {
        return Timer.builder("kopek.recovery.lease_expiry_to_final")
                .description("time from an owner's lease expiring to the operation's final state")
                .tag("kind", kind)
                .serviceLevelObjectives(BUCKETS)
                .register(meters);
    }
}
