package dev.kopek.simulator;

/**
 * How the simulator behaves for fresh (not replayed) charge requests. Immutable; swap it whole with
 * {@link AcquirerSimulator#configure(SimulatorConfig)} so a request always sees one consistent config.
 *
 * <p>Rates are probabilities in 0..1 of mutually exclusive outcomes drawn with a single roll, so they
 * are exact (a 0.05 fail-after rate fails 5% of fresh charges) and must add up to at most 1.
 *
 * @param latencyMinMillis        lower bound of the uniform latency added to every fresh charge
 * @param latencyMaxMillis        upper bound of that latency
 * @param slowMinMillis           lower bound of the extra sleep of {@code pm_slow}
 * @param slowMaxMillis           upper bound of that sleep
 * @param timeoutHangMillis       how long a timeout-after-charge response hangs before it is written
 * @param keyWindowSeconds        how long (on the simulator clock) an idempotency key is remembered
 * @param failBeforeChargeRate    probability of a 503 with nothing charged
 * @param failAfterChargeRate     probability of a 500 after the charge succeeded and was stored
 * @param timeoutAfterChargeRate  probability of a hang after the charge succeeded and was stored
 */
public record SimulatorConfig(long latencyMinMillis, long latencyMaxMillis, long slowMinMillis, long slowMaxMillis,
        long timeoutHangMillis, long keyWindowSeconds, double failBeforeChargeRate, double failAfterChargeRate,
        double timeoutAfterChargeRate) {

    private static final SimulatorConfig DEFAULTS =
            new SimulatorConfig(0, 0, 3_000, 8_000, 10_000, 86_400, 0, 0, 0);

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
    }

    /** No latency, no random faults, pm_slow 3–8 s, hang 10 s, keys remembered 24 h. */
    public static SimulatorConfig defaults() {
        return DEFAULTS;
    }

    public SimulatorConfig withLatency(long minMillis, long maxMillis) {
        return new SimulatorConfig(minMillis, maxMillis, slowMinMillis, slowMaxMillis, timeoutHangMillis,
                keyWindowSeconds, failBeforeChargeRate, failAfterChargeRate, timeoutAfterChargeRate);
    }

    public SimulatorConfig withSlow(long minMillis, long maxMillis) {
        return new SimulatorConfig(latencyMinMillis, latencyMaxMillis, minMillis, maxMillis, timeoutHangMillis,
                keyWindowSeconds, failBeforeChargeRate, failAfterChargeRate, timeoutAfterChargeRate);
    }

    public SimulatorConfig withTimeoutHangMillis(long millis) {
        return new SimulatorConfig(latencyMinMillis, latencyMaxMillis, slowMinMillis, slowMaxMillis, millis,
                keyWindowSeconds, failBeforeChargeRate, failAfterChargeRate, timeoutAfterChargeRate);
    }

    public SimulatorConfig withKeyWindowSeconds(long seconds) {
        return new SimulatorConfig(latencyMinMillis, latencyMaxMillis, slowMinMillis, slowMaxMillis,
                timeoutHangMillis, seconds, failBeforeChargeRate, failAfterChargeRate, timeoutAfterChargeRate);
    }

    public SimulatorConfig withFaultRates(double failBefore, double failAfter, double timeoutAfter) {
        return new SimulatorConfig(latencyMinMillis, latencyMaxMillis, slowMinMillis, slowMaxMillis,
                timeoutHangMillis, keyWindowSeconds, failBefore, failAfter, timeoutAfter);
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
