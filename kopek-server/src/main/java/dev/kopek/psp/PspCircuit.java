package dev.kopek.psp;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The circuit breaker of one adapter (resilience4j). Calls whose outcome proves nothing (unknown: timeouts, resets,
 * 5xx, 409, 429) count as failures; every other answer, declines included, shows the PSP working. Above the failure
 * threshold the circuit opens: new payments are refused before a key is claimed or the PSP is called
 * ({@link #refusal()}), never declined; attempts already in flight still resolve through lookup and the reconciler,
 * whose calls are not gated. After the wait it lets new payments through again (half-open) and closes once they
 * succeed.
 *
 * <p>One circuit per PSP account ({@link PspCircuits}): Kopek's configured account has one, and each merchant's own
 * account at a PSP has its own, so one tenant's failures (Stripe rate-limits and locks per account) never refuse
 * another tenant's payments.
 */
public final class PspCircuit {

    /** The {@code account} tag of Kopek's configured PSP account; a merchant's own account is tagged with its id. */
    public static final String CONFIGURED = "configured";

    private final CircuitBreaker breaker;
    private final Duration wait;
    private final Counter refused;
    /** Set while this thread holds a permit {@link #refusal} gave and no PSP call has used it yet. */
    private final ThreadLocal<Boolean> unused = new ThreadLocal<>();

    /** The circuit of Kopek's configured account at the PSP {@code adapter}. */
    public PspCircuit(String adapter, PspCircuitProperties properties, MeterRegistry meters, Clock clock) {
        this(adapter, CONFIGURED, properties, meters, clock);
    }

    /**
     * The circuit of one account at the PSP {@code adapter}: {@link #CONFIGURED} or a merchant's id. The breaker
     * reads Kopek's clock, so its wait is measured like every other time in Kopek (and tests move it).
     */
    public PspCircuit(
            String adapter, String account, PspCircuitProperties properties, MeterRegistry meters, Clock clock) {
        this.wait = properties.waitInOpen();
        this.breaker = CircuitBreaker.of(
                nameOf(adapter, account),
                CircuitBreakerConfig.custom()
                        .clock(clock)
                        .failureRateThreshold(properties.failureRatePercent())
                        .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                        .slidingWindowSize(properties.windowCalls())
                        .minimumNumberOfCalls(properties.minimumCalls())
                        .waitDurationInOpenState(properties.waitInOpen())
                        .permittedNumberOfCallsInHalfOpenState(properties.halfOpenCalls())
                        // A half-open permit taken by a request that never reached the PSP (a replay) yields no result;
                        // reopening after the wait keeps the circuit from waiting for it for ever.
                        .maxWaitDurationInHalfOpenState(properties.waitInOpen())
                        .build());
        Gauge.builder("kopek.psp.circuit.state", this, PspCircuit::stateCode)
                .description("PSP circuit: 0 closed, 1 open, 2 half-open")
                .tag("adapter", adapter)
                .tag("account", account)
                .register(meters);
        this.refused = Counter.builder("kopek.psp.circuit.refused")
                .description("new payments refused while the PSP's circuit was open")
                .tag("adapter", adapter)
                .tag("account", account)
                .register(meters);
    }

    /**
     * How {@code /v1/ops/psp} names a circuit: the PSP's name for Kopek's configured account, {@code <psp>:<merchant
     * id>} for a merchant's own account (as settlement names that account's files).
     */
    static String nameOf(String adapter, String account) {
        return account.equals(CONFIGURED) ? adapter : adapter + ":" + account;
    }

    /** As {@link #nameOf}. */
    public String name() {
        return breaker.getName();
    }

    /** Empty when a new payment may go to the PSP; otherwise how long to wait before trying again. */
    public Optional<Duration> refusal() {
        // Closed: always permitted. Open: refused until the wait is over, then half-open. Half-open: each new
        // payment takes one of the trial permits; its PSP call's outcome is recorded by the adapter's wrapper.
        if (breaker.tryAcquirePermission()) {
            unused.set(Boolean.TRUE);
            return Optional.empty();
        }
        refused.increment();
        return Optional.of(wait);
    }

    /**
     * Gives back the permit {@link #refusal} gave this thread when the request ended without calling the PSP: a
     * replay of a final answer, a key in flight, an intent that already has a live attempt, a lookup that found the
     * outcome. Half-open, each permit is one of the few trial calls that decide whether the circuit closes; one kept by
     * a request that never called the PSP left the circuit waiting for a result that never came, and refusing new
     * payments until its wait ran out again. Closed, this changes nothing.
     */
    public void releaseUnused() {
        if (unused.get() != null) {
            unused.remove();
            breaker.releasePermission();
        }
    }

    void record(ChargeOutcome outcome, long nanos) {
        unused.remove();
        switch (outcome) {
            // The PSP answered and waits for the customer (3-D Secure): it is working, however many need it.
            case ChargeOutcome.Unknown waiting
            when waiting.nextAction() != null -> breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
            case ChargeOutcome.Unknown unknown ->
                breaker.onError(nanos, TimeUnit.NANOSECONDS, new PspUnavailable(unknown.reason()));
            case ChargeOutcome.Succeeded s -> breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
            case ChargeOutcome.Authorized a -> breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
            case ChargeOutcome.Declined d -> breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
            case ChargeOutcome.Failed f -> breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
        }
    }

    /** {@code closed}, {@code open}, {@code half_open} (or resilience4j's other states, in lower case). */
    public String state() {
        return breaker.getState().name().toLowerCase(Locale.ROOT);
    }

    private double stateCode() {
        return switch (breaker.getState()) {
            case CLOSED, DISABLED, METRICS_ONLY -> 0;
            case OPEN, FORCED_OPEN -> 1;
            case HALF_OPEN -> 2;
        };
    }

    /** Why a call counted as a failure; never thrown. */
    private static final class PspUnavailable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PspUnavailable(String reason) {
            super(reason, null, false, false);
        }
    }
}
