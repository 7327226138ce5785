package dev.kopek.simulator;

import java.net.URI;
import java.util.Objects;

/**
 * How the simulator behaves for fresh (not replayed) requests. Immutable; swap it whole with
 * {@link AcquirerSimulator#configure(SimulatorConfig)} so a request always sees one consistent config.
 *
 * <p>Rates are probabilities in 0..1 of mutually exclusive outcomes drawn with a single roll, so they
 * are exact (a 0.05 fail-after rate fails 5% of fresh charges) and must add up to at most 1.
 *
 * @param latencyMinMillis        lower bound of the uniform latency added to every fresh request
 * @param latencyMaxMillis        upper bound of that latency
 * @param slowMinMillis           lower bound of the extra sleep of {@code pm_slow}
 * @param slowMaxMillis           upper bound of that sleep
 * @param timeoutHangMillis       how long a timeout-after-charge response hangs before it is written
 * @param keyWindowSeconds        how long (on the simulator clock) an idempotency key is remembered
 * @param failBeforeChargeRate    probability of a 503 with nothing charged
 * @param failAfterChargeRate     probability of a 500 after the charge succeeded and was stored
 * @param timeoutAfterChargeRate  probability of a hang after the charge succeeded and was stored
 * @param authorizationTtlSeconds how long (on the simulator clock) an authorization can be captured or voided
 * @param feeBps                  the acquirer's fee in basis points of each captured amount, 0..10000; it
 *                                shows as fee rows in the settlement file
 * @param webhooks                where and how signed webhooks are sent; off by default
 */
public record SimulatorConfig(
        long latencyMinMillis,
        long latencyMaxMillis,
        long slowMinMillis,
        long slowMaxMillis,
        long timeoutHangMillis,
        long keyWindowSeconds,
        double failBeforeChargeRate,
        double failAfterChargeRate,
        double timeoutAfterChargeRate,
        long authorizationTtlSeconds,
        long feeBps,
        WebhookSettings webhooks) {

    /** Seven days, a common card-network authorization lifetime. */
    static final long DEFAULT_AUTHORIZATION_TTL_SECONDS = 604_800;

    private static final long MAX_FEE_BPS = 10_000;

    private static final SimulatorConfig DEFAULTS = new SimulatorConfig(0, 0, 3_000, 8_000, 10_000, 86_400, 0, 0, 0);

    /** Validates eagerly so an invalid config can never be installed, whichever way it arrives. */
    public SimulatorConfig {
        requireNonNegative("latency_min_ms", latencyMinMillis);
        requireNonNegative("latency_max_ms", latencyMaxMillis);
        requireNonNegative("slow_min_ms", slowMinMillis);
        requireNonNegative("slow_max_ms", slowMaxMillis);
        requireNonNegative("timeout_hang_ms", timeoutHangMillis);
        requireNonNegative("key_window_seconds", keyWindowSeconds);
        requireOrdered("latency", latencyMinMillis, latencyMaxMillis);
        requireOrdered("slow", slowMinMillis, slowMaxMillis);
        requireRate("fail_before_charge_rate", failBeforeChargeRate);
        requireRate("fail_after_charge_rate", failAfterChargeRate);
        requireRate("timeout_after_charge_rate", timeoutAfterChargeRate);
        // The tolerance forgives binary rounding, e.g. 0.1 + 0.2 + 0.7.
        if (failBeforeChargeRate + failAfterChargeRate + timeoutAfterChargeRate > 1.0 + 1e-9) {
            throw new IllegalArgumentException("the three fault rates must add up to at most 1");
        }
        requireNonNegative("authorization_ttl_seconds", authorizationTtlSeconds);
        if (feeBps < 0 || feeBps > MAX_FEE_BPS) {
            throw new IllegalArgumentException("fee_bps must be between 0 and " + MAX_FEE_BPS);
        }
        Objects.requireNonNull(webhooks, "webhooks");
    }

    /**
     * The original nine-field config; the newer fields take their defaults (authorizations live 7 days,
     * no fee, webhooks off).
     */
    public SimulatorConfig(
            long latencyMinMillis,
            long latencyMaxMillis,
            long slowMinMillis,
            long slowMaxMillis,
            long timeoutHangMillis,
            long keyWindowSeconds,
            double failBeforeChargeRate,
            double failAfterChargeRate,
            double timeoutAfterChargeRate) {
        this(
                latencyMinMillis,
                latencyMaxMillis,
                slowMinMillis,
                slowMaxMillis,
                timeoutHangMillis,
                keyWindowSeconds,
                failBeforeChargeRate,
                failAfterChargeRate,
                timeoutAfterChargeRate,
                DEFAULT_AUTHORIZATION_TTL_SECONDS,
                0,
                WebhookSettings.defaults());
    }

    /**
     * No latency, no random faults, pm_slow 3–8 s, hang 10 s, keys remembered 24 h, authorizations 7 days,
     * no fee, webhooks off.
     */
    public static SimulatorConfig defaults() {
        return DEFAULTS;
    }

    public SimulatorConfig withLatency(long minMillis, long maxMillis) {
        return new SimulatorConfig(
                minMillis,
                maxMillis,
                slowMinMillis,
                slowMaxMillis,
                timeoutHangMillis,
                keyWindowSeconds,
                failBeforeChargeRate,
                failAfterChargeRate,
                timeoutAfterChargeRate,
                authorizationTtlSeconds,
                feeBps,
                webhooks);
    }

    public SimulatorConfig withSlow(long minMillis, long maxMillis) {
        return new SimulatorConfig(
                latencyMinMillis,
                latencyMaxMillis,
                minMillis,
                maxMillis,
                timeoutHangMillis,
                keyWindowSeconds,
                failBeforeChargeRate,
                failAfterChargeRate,
                timeoutAfterChargeRate,
                authorizationTtlSeconds,
                feeBps,
                webhooks);
    }

    public SimulatorConfig withTimeoutHangMillis(long millis) {
        return new SimulatorConfig(
                latencyMinMillis,
                latencyMaxMillis,
                slowMinMillis,
                slowMaxMillis,
                millis,
                keyWindowSeconds,
                failBeforeChargeRate,
                failAfterChargeRate,
                timeoutAfterChargeRate,
                authorizationTtlSeconds,
                feeBps,
                webhooks);
    }

    public SimulatorConfig withKeyWindowSeconds(long seconds) {
        return new SimulatorConfig(
                latencyMinMillis,
                latencyMaxMillis,
                slowMinMillis,
                slowMaxMillis,
                timeoutHangMillis,
                seconds,
                failBeforeChargeRate,
                failAfterChargeRate,
                timeoutAfterChargeRate,
                authorizationTtlSeconds,
                feeBps,
                webhooks);
    }

    public SimulatorConfig withFaultRates(double failBefore, double failAfter, double timeoutAfter) {
        return new SimulatorConfig(
                latencyMinMillis,
                latencyMaxMillis,
                slowMinMillis,
                slowMaxMillis,
                timeoutHangMillis,
                keyWindowSeconds,
                failBefore,
                failAfter,
                timeoutAfter,
                authorizationTtlSeconds,
                feeBps,
                webhooks);
    }

    public SimulatorConfig withAuthorizationTtlSeconds(long seconds) {
        return new SimulatorConfig(
                latencyMinMillis,
                latencyMaxMillis,
                slowMinMillis,
                slowMaxMillis,
                timeoutHangMillis,
                keyWindowSeconds,
                failBeforeChargeRate,
                failAfterChargeRate,
                timeoutAfterChargeRate,
                seconds,
                feeBps,
                webhooks);
    }

    public SimulatorConfig withFeeBps(long bps) {
        return new SimulatorConfig(
                latencyMinMillis,
                latencyMaxMillis,
                slowMinMillis,
                slowMaxMillis,
                timeoutHangMillis,
                keyWindowSeconds,
                failBeforeChargeRate,
                failAfterChargeRate,
                timeoutAfterChargeRate,
                authorizationTtlSeconds,
                bps,
                webhooks);
    }

    public SimulatorConfig withWebhooks(WebhookSettings settings) {
        return new SimulatorConfig(
                latencyMinMillis,
                latencyMaxMillis,
                slowMinMillis,
                slowMaxMillis,
                timeoutHangMillis,
                keyWindowSeconds,
                failBeforeChargeRate,
                failAfterChargeRate,
                timeoutAfterChargeRate,
                authorizationTtlSeconds,
                feeBps,
                settings);
    }

    /** Shorthand for {@code withWebhooks(webhooks().withUrl(url))}; {@code null} switches webhooks off. */
    public SimulatorConfig withWebhookUrl(URI url) {
        return withWebhooks(webhooks.withUrl(url));
    }

    private static void requireNonNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative");
        }
    }

    private static void requireOrdered(String name, long min, long max) {
        if (min > max) {
            throw new IllegalArgumentException(name + " min must not exceed max");
        }
    }

    private static void requireRate(String name, double rate) {
        // The negated form also rejects NaN.
        if (!(rate >= 0.0 && rate <= 1.0)) {
            throw new IllegalArgumentException(name + " must be between 0 and 1");
        }
    }
}
