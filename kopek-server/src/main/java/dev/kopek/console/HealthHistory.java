package dev.kopek.console;

import dev.kopek.platform.DatabaseOutages;
import dev.kopek.platform.RecoveryMeters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The last hour of the Health page's figures, one sample a minute, kept in this instance's memory (Prometheus keeps
 * the long history; the console needs only enough to see a trend). Rates are over the minute between samples.
 */
@Component
public class HealthHistory {

    /** One minute's figures. Rates are fractions of the calls or attempts in that minute, 0 when there were none. */
    public record Sample(
            Instant at,
            long unknown,
            double oldestUnknownSeconds,
            long reviewOpen,
            double outboxLagSeconds,
            double webhookFailureRate,
            double pspErrorRate) {}

    private static final int POINTS = 61;
    private static final String WORKER = "console health sample";

    private final HealthQueries health;
    private final MeterRegistry meters;
    private final Clock clock;
    private final DatabaseOutages outages;
    private final Deque<Sample> samples = new ArrayDeque<>();
    private double lastWebhookFailed;
    private double lastWebhookAll;
    private double lastPspErrors;
    private double lastPspAll;

    HealthHistory(HealthQueries health, MeterRegistry meters, Clock clock, DatabaseOutages outages) {
        this.health = health;
        this.meters = meters;
        this.clock = clock;
        this.outages = outages;
    }

    /** A minute the database was away for has no sample (the chart has a gap), and the log one warning. */
    @Scheduled(fixedRateString = "${kopek.console.sample-interval:60s}", initialDelayString = "5s")
    void scheduled() {
        try {
            sample();
            outages.succeeded(WORKER);
        } catch (RuntimeException e) {
            if (!outages.failed(WORKER, e)) {
                throw e;
            }
        }
    }

    public synchronized Sample sample() {
        double webhookFailed = counter("kopek.webhooks.attempts", "failed");
        double webhookAll = webhookFailed + counter("kopek.webhooks.attempts", "succeeded");
        double pspErrors = pspCalls(t -> isError(t.getId().getTag("outcome")) ? t.count() : 0);
        double pspAll = pspCalls(Timer::count);
        Sample sample = figures(
                rate(webhookFailed - lastWebhookFailed, webhookAll - lastWebhookAll),
                rate(pspErrors - lastPspErrors, pspAll - lastPspAll));
        lastWebhookFailed = webhookFailed;
        lastWebhookAll = webhookAll;
        lastPspErrors = pspErrors;
        lastPspAll = pspAll;
        if (samples.size() == POINTS) {
            samples.removeFirst();
        }
        samples.addLast(sample);
        return sample;
    }

    /** The figures as of now, with the rates of the latest minute sampled (a rate needs an interval). */
    public synchronized Sample current() {
        Sample last = samples.peekLast();
        return figures(last == null ? 0 : last.webhookFailureRate(), last == null ? 0 : last.pspErrorRate());
    }

    private Sample figures(double webhookFailureRate, double pspErrorRate) {
        long unknown = 0;
        double oldest = 0;
        for (String kind : RecoveryMeters.KINDS) {
            HealthQueries.Unknowns u = health.unknowns(kind);
            unknown += u.count();
            oldest = Math.max(oldest, u.oldestAgeSeconds());
        }
        double lag = Math.max(health.feedLagSeconds(), health.webhookLagSeconds());
        return new Sample(
                clock.instant(), unknown, oldest, health.openReviews(), lag, webhookFailureRate, pspErrorRate);
    }

    public synchronized List<Sample> lastHour() {
        return List.copyOf(samples);
    }

    private double counter(String name, String outcome) {
        var counter = meters.find(name).tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    private double pspCalls(ToDoubleFunction<Timer> value) {
        return meters.find("kopek.psp.calls").timers().stream()
                .mapToDouble(value)
                .sum();
    }

    private static boolean isError(String outcome) {
        return "unknown".equals(outcome) || "failed".equals(outcome) || "inconclusive".equals(outcome);
    }

    private static double rate(double part, double all) {
        return all <= 0 ? 0 : Math.max(0, Math.min(1, part / all));
    }

    /**
     * A small line chart of one figure over the samples, as inline SVG built from numbers only (no user text), so the
     * page can embed it as markup and it renders with JavaScript off.
     */
    public static String chart(List<Sample> samples, ToDoubleFunction<Sample> figure, String label, boolean percent) {
        int width = 400;
        int height = 64;
        double max = samples.stream().mapToDouble(figure).max().orElse(0);
        double top = max <= 0 ? 1 : max;
        StringBuilder points = new StringBuilder();
        for (int i = 0; i < samples.size(); i++) {
            double x = samples.size() == 1 ? width : (double) i * width / (samples.size() - 1);
            double y = height - 4 - figure.applyAsDouble(samples.get(i)) / top * (height - 12);
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        }
        String peak = percent ? String.format(Locale.ROOT, "%.1f%%", max * 100) : trim(max);
        return String.format(
                Locale.ROOT,
                """
                <svg class="chart" viewBox="0 0 %d %d" role="img" aria-label="%s over the last \
                hour, peak %s"><line x1="0" y1="%d" x2="%d" y2="%d" class="axis"/>\
                <polyline points="%s" class="line"/><text x="2" y="10" class="peak">peak %s</text></svg>""",
                width,
                height,
                label,
                peak,
                height - 4,
                width,
                height - 4,
                points.toString().trim(),
                peak);
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
