package dev.kopek.bench.outbox;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Outbox lag from the event's transaction to the broker's acknowledgement, and events per second, for the relay
 * mode a running Kopek was started with ({@code KOPEK_OUTBOX_MODE}). Drives {@code POST /v1/payments} (pm_ok:
 * two events each) at a fixed rate, waits until the outbox is drained, and reads Kopek's own
 * {@code kopek.outbox.publish.lag} histogram from {@code /actuator/prometheus}: the difference between a scrape
 * before and one after a warm-up, so only the measured run counts. JDK only. {@code benchmarks/run-outbox-lag.sh}
 * runs both modes.
 *
 * <p>Flags: {@code --url http://127.0.0.1:8080 --api-key <key> --rate <payments/s> --seconds <n>
 * --warmup-seconds <n> --mode polling|cdc}.
 */
public final class OutboxLagBenchmark {

    private static final PrintStream OUT = System.out;
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([^}]*)\\})?\\s+(\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_]+)=\"([^\"]*)\"");
    private static final Duration DRAIN_LIMIT = Duration.ofSeconds(120);
    private static final int MAX_IN_FLIGHT = 256;

    private OutboxLagBenchmark() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> flags = flags(args);
        URI base = URI.create(flags.getOrDefault("url", "http://127.0.0.1:8080"));
        String apiKey = flags.getOrDefault("api-key", System.getenv().getOrDefault("KOPEK_DEMO_API_KEY", ""));
        int rate = Integer.parseInt(flags.getOrDefault("rate", "100"));
        int seconds = Integer.parseInt(flags.getOrDefault("seconds", "20"));
        String mode = flags.getOrDefault("mode", "polling");
        if (apiKey.isEmpty() || rate < 1 || rate > 10_000 || seconds < 1 || seconds > 3600) {
            throw new IllegalArgumentException("need --api-key, --rate 1..10000 and --seconds 1..3600");
        }
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .connectTimeout(Duration.ofSeconds(5))
                .build();

        int warmup = Integer.parseInt(flags.getOrDefault("warmup-seconds", "10"));
        if (warmup > 0) {
            Metrics cold = Metrics.scrape(http, base);
            Load warm = drive(http, base, apiKey, rate, warmup);
            awaitDrained(http, base, mode, cold, 2L * warm.created());
        }
        Metrics before = Metrics.scrape(http, base);
        long started = System.nanoTime();
        Load load = drive(http, base, apiKey, rate, seconds);
        long loadEnded = System.nanoTime();
        Metrics after = awaitDrained(http, base, mode, before, 2L * load.created());
        long drained = System.nanoTime();

        double published =
                after.value("kopek_outbox_published_total", mode) - before.value("kopek_outbox_published_total", mode);
        Map<Double, Double> buckets = after.bucketsMinus(before, mode);
        double count = buckets.getOrDefault(Double.POSITIVE_INFINITY, 0.0);
        double sumSeconds = after.value("kopek_outbox_publish_lag_seconds_sum", mode)
                - before.value("kopek_outbox_publish_lag_seconds_sum", mode);
        double loadSeconds = (loadEnded - started) / 1e9;
        OUT.printf(
                Locale.ROOT,
                "mode=%s rate=%d/s seconds=%d payments_created=%d failed=%d%n",
                mode,
                rate,
                seconds,
                load.created(),
                load.failed());
        OUT.printf(
                Locale.ROOT,
                "RESULT outbox mode=%s events=%.0f events_per_s=%.1f lag_p50_ms=%.1f "
                        + "lag_p99_ms=%.1f lag_mean_ms=%.1f drain_after_load_ms=%.0f%n",
                mode,
                published,
                published / loadSeconds,
                1000 * quantile(buckets, count, 0.50),
                1000 * quantile(buckets, count, 0.99),
                count == 0 ? 0 : 1000 * sumSeconds / count,
                (drained - loadEnded) / 1e6);
    }

    private record Load(int created, int failed) {}

    /** Payments issued on a fixed schedule (open loop): a slow answer does not slow the arrivals. */
    private static Load drive(HttpClient http, URI base, String apiKey, int rate, int seconds)
            throws InterruptedException {
        AtomicInteger created = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
        long periodNanos = 1_000_000_000L / rate;
        long start = System.nanoTime();
        int total = rate * seconds;
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < total; i++) {
                long wait = start + i * periodNanos - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                inFlight.acquire();
                pool.submit(() -> {
                    try {
                        (pay(http, base, apiKey) ? created : failed).incrementAndGet();
                    } finally {
                        inFlight.release();
                    }
                });
            }
        }
        return new Load(created.get(), failed.get());
    }

    private static boolean pay(HttpClient http, URI base, String apiKey) {
        String body = "{\"reference\":\"bench-" + UUID.randomUUID() + "\",\"amount\":1000,\"currency\":\"EUR\","
                + "\"payment_method\":\"pm_ok\"}";
        HttpRequest request = HttpRequest.newBuilder(base.resolve("/v1/payments"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + apiKey)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 201;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Metrics awaitDrained(HttpClient http, URI base, String mode, Metrics before, long expected)
            throws Exception {
        long deadline = System.nanoTime() + DRAIN_LIMIT.toNanos();
        while (true) {
            Metrics now = Metrics.scrape(http, base);
            double published = now.value("kopek_outbox_published_total", mode)
                    - before.value("kopek_outbox_published_total", mode);
            if ((published >= expected && now.value("kopek_outbox_unpublished", null) == 0)
                    || System.nanoTime() > deadline) {
                return now;
            }
            Thread.sleep(20);
        }
    }

    /** The q-quantile of a cumulative histogram, interpolated linearly inside its bucket. */
    private static double quantile(Map<Double, Double> cumulative, double count, double q) {
        if (count == 0) {
            return 0;
        }
        double rank = q * count;
        double previousBound = 0;
        double previousCount = 0;
        for (Map.Entry<Double, Double> bucket : new TreeMap<>(cumulative).entrySet()) {
            if (bucket.getValue() >= rank) {
                if (bucket.getKey().isInfinite()) {
                    return previousBound;
                }
                double inBucket = bucket.getValue() - previousCount;
                double fraction = inBucket == 0 ? 1 : (rank - previousCount) / inBucket;
                return previousBound + fraction * (bucket.getKey() - previousBound);
            }
            previousBound = bucket.getKey();
            previousCount = bucket.getValue();
        }
        return previousBound;
    }

    private static Map<String, String> flags(String[] args) {
        Map<String, String> flags = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --flag value, got " + args[i]);
            }
            flags.put(args[i].substring(2), args[i + 1]);
        }
        return flags;
    }

    /** One scrape of the Prometheus text format, only the outbox series. */
    private record Metrics(List<Sample> samples) {

        record Sample(String name, Map<String, String> labels, double value) {}

        /** Prometheus is an admin endpoint: the scrape sends KOPEK_ADMIN_TOKEN, as Kopek was started with it. */
        static Metrics scrape(HttpClient http, URI base) throws IOException, InterruptedException {
            HttpRequest request = HttpRequest.newBuilder(base.resolve("/actuator/prometheus"))
                    .header("Authorization", "Bearer " + System.getenv().getOrDefault("KOPEK_ADMIN_TOKEN", ""))
                    .timeout(Duration.ofSeconds(10))
                    .GET()
                    .build();
            String text =
                    http.send(request, HttpResponse.BodyHandlers.ofString()).body();
            List<Sample> samples = new ArrayList<>();
            for (String line : text.split("\n")) {
                if (!line.startsWith("kopek_outbox")) {
                    continue;
                }
                Matcher m = SAMPLE.matcher(line);
                if (m.find()) {
                    Map<String, String> labels = new HashMap<>();
                    if (m.group(3) != null) {
                        Matcher l = LABEL.matcher(m.group(3));
                        while (l.find()) {
                            labels.put(l.group(1), l.group(2));
                        }
                    }
                    samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
                }
            }
            return new Metrics(samples);
        }

        double value(String name, String mode) {
            return samples.stream()
                    .filter(s -> s.name().equals(name))
                    .filter(s -> mode == null || mode.equals(s.labels().get("mode")))
                    .mapToDouble(Sample::value)
                    .sum();
        }

        Map<Double, Double> bucketsMinus(Metrics earlier, String mode) {
            Map<Double, Double> result = new TreeMap<>();
            for (Sample s : samples) {
                if (s.name().equals("kopek_outbox_publish_lag_seconds_bucket")
                        && mode.equals(s.labels().get("mode"))) {
                    double le = bound(s.labels().get("le"));
                    double was = earlier.samples.stream()
                            .filter(e -> e.name().equals(s.name())
                                    && mode.equals(e.labels().get("mode"))
                                    && bound(e.labels().get("le")) == le)
                            .mapToDouble(Sample::value)
                            .sum();
                    result.put(le, s.value() - was);
                }
            }
            return result;
        }

        private static double bound(String le) {
            return le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
        }
    }
}
