package dev.kopek.psp;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Wraps an adapter to time every PSP call and count its outcome by adapter, operation and meaning
 * ({@code kopek.psp.calls}), and to report each payment-path call to a {@link PspCallLog}. Adds no behaviour:
 * every answer passes through unchanged.
 */
public final class ObservedPaymentProvider implements PaymentProvider {

    /** Latency buckets for dashboards and alerts: a fixed few, not the default hundred per series. */
    private static final Duration[] BUCKETS = Stream.of(5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000)
            .map(Duration::ofMillis)
            .toArray(Duration[]::new);

    private final PaymentProvider adapter;
    private final MeterRegistry meters;
    private final PspCallLog callLog;
    private final Clock clock;
    /** By operation and outcome: a builder and a registry lookup per call showed in the payment path's profile. */
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    public ObservedPaymentProvider(PaymentProvider adapter, MeterRegistry meters, PspCallLog callLog, Clock clock) {
        this.adapter = adapter;
        this.meters = meters;
        this.callLog = callLog;
        this.clock = clock;
    }

    @Override
    public String name() {
        return adapter.name();
    }

    @Override
    public IdempotencyContract contract() {
        return adapter.contract();
    }

    @Override
    public boolean capturesInParts() {
        return adapter.capturesInParts();
    }

    @Override
    public ChargeOutcome execute(PspRequest request) {
        return observe(request.operation(), request.providerKey(), () -> adapter.execute(request));
    }

    @Override
    public ChargeOutcome executeOnce(PspRequest request) {
        return observe(request.operation(), request.providerKey(), () -> adapter.executeOnce(request));
    }

    @Override
    public LookupResult lookup(PspRequest request) {
        return observeLookup("lookup_" + request.operation(), request.providerKey(), () -> adapter.lookup(request));
    }

    @Override
    public String notificationSignatureHeader() {
        return adapter.notificationSignatureHeader();
    }

    @Override
    public NotificationCheck verifyNotification(String signatureHeader, String body) {
        return adapter.verifyNotification(signatureHeader, body);
    }

    @Override
    public PspNotification readVerifiedNotification(String body) {
        return adapter.readVerifiedNotification(body);
    }

    @Override
    public SettlementReport settlementReport(LocalDate date) {
        long start = System.nanoTime();
        String outcome = "failed";
        try {
            SettlementReport report = adapter.settlementReport(date);
            outcome = "succeeded";
            return report;
        } finally {
            timer("settlement_report", outcome).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public Optional<String> providerKeyOf(String pspReference) {
        return adapter.providerKeyOf(pspReference);
    }

    private ChargeOutcome observe(String operation, String providerKey, Supplier<ChargeOutcome> call) {
        Instant startedAt = clock.instant();
        long start = System.nanoTime();
        ChargeOutcome outcome = call.get();
        long nanos = System.nanoTime() - start;
        String meaning = switch (outcome) {
            case ChargeOutcome.Succeeded s -> "succeeded";
            case ChargeOutcome.Authorized a -> "authorized";
            case ChargeOutcome.Declined d -> "declined";
            case ChargeOutcome.Failed f -> "failed";
            case ChargeOutcome.Unknown u -> "unknown";
        };
        timer(operation, meaning).record(nanos, TimeUnit.NANOSECONDS);
        callLog.record(new PspCallLog.Call(
                name(),
                operation,
                providerKey,
                meaning,
                reference(outcome),
                detail(outcome),
                startedAt,
                nanos / 1_000_000));
        return outcome;
    }

    private LookupResult observeLookup(String operation, String providerKey, Supplier<LookupResult> call) {
        Instant startedAt = clock.instant();
        long start = System.nanoTime();
        LookupResult result = call.get();
        long nanos = System.nanoTime() - start;
        String meaning = switch (result) {
            case LookupResult.Found f -> "found";
            case LookupResult.NotFound n -> "not_found";
            case LookupResult.Inconclusive i -> "inconclusive";
        };
        timer(operation, meaning).record(nanos, TimeUnit.NANOSECONDS);
        String reference = result instanceof LookupResult.Found f ? reference(f.outcome()) : null;
        String detail = switch (result) {
            case LookupResult.Found f -> detail(f.outcome());
            case LookupResult.NotFound n -> null;
            case LookupResult.Inconclusive i -> i.reason();
        };
        callLog.record(new PspCallLog.Call(
                name(), operation, providerKey, meaning, reference, detail, startedAt, nanos / 1_000_000));
        return result;
    }

    private Timer timer(String operation, String outcome) {
        return timers.computeIfAbsent(
                operation + ' ' + outcome,
                key -> Timer.builder("kopek.psp.calls")
                        .description("PSP calls by adapter, operation and outcome")
                        .tag("adapter", name())
                        .tag("operation", operation)
                        .tag("outcome", outcome)
                        .serviceLevelObjectives(BUCKETS)
                        .register(meters));
    }

    private static String reference(ChargeOutcome outcome) {
        return switch (outcome) {
            case ChargeOutcome.Succeeded s -> s.pspReference();
            case ChargeOutcome.Authorized a -> a.pspReference();
            case ChargeOutcome.Declined d -> d.pspReference();
            case ChargeOutcome.Failed f -> null;
            case ChargeOutcome.Unknown u -> null;
        };
    }

    private static String detail(ChargeOutcome outcome) {
        return switch (outcome) {
            case ChargeOutcome.Succeeded s -> null;
            case ChargeOutcome.Authorized a -> null;
            case ChargeOutcome.Declined d -> d.declineCode();
            case ChargeOutcome.Failed f -> f.reason();
            case ChargeOutcome.Unknown u -> u.reason();
        };
    }
}
