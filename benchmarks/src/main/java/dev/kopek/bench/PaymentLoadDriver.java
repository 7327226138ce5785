package dev.kopek.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Drives {@code POST /v1/payments} against a running Kopek and prints throughput, latency percentiles,
 * answers by HTTP status and by the body's {@code status}, and the simulator's money movements before and
 * after (they must grow by exactly the number of {@code 201 captured} answers: at most once under load).
 *
 * <p>JDK only: one shared HTTP/1.1 {@link HttpClient} (keep-alive), C virtual-thread workers pulling payment
 * numbers from a shared counter, exact percentiles from a sorted array of per-request latencies, and a sampler
 * that reads the number of requests in flight every 100 ms. Run with {@code --help} for the flags.
 */
public final class PaymentLoadDriver {

    private static final PrintStream OUT = System.out;
    private static final Pattern STRING_FIELD = Pattern.compile("\"(status|code)\"\\s*:\\s*\"([^\"]{0,64})\"");
    private static final Pattern NUMBER_FIELD = Pattern.compile("\"([a-z_.]+)\"\\s*:\\s*(-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)");
    private static final long SAMPLE_EVERY_MS = 100;

    private PaymentLoadDriver() {
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println(Options.USAGE);
            System.exit(64);
            return;
        }
        if (options == null) {
            OUT.println(Options.USAGE);
            return;
        }
        int exit = new PaymentLoadDriver().run(options);
        System.exit(exit);
    }

    private int run(Options o) throws Exception {
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        Admin admin = new Admin(http, o);
        String runId = UUID.randomUUID().toString().substring(0, 8);

        OUT.printf(Locale.ROOT, "Kopek payment load: %s, %d payments (+%d warmup), concurrency %d, %s %d %s, "
                        + "simulator latency %d ms, run %s%n", o.url, o.payments, o.warmup, o.concurrency,
                o.method, o.amount, o.currency, o.latencyMs, runId);

        if (o.simulatorUrl != null) {
            admin.setLatency(0); // warm up at zero latency whatever the measured run uses
        }
        if (o.warmup > 0) {
            Phase warm = new Phase("w-" + runId, o.warmup, o, http, false);
            warm.run();
            OUT.printf(Locale.ROOT, "  warmup      %d payments in %.1f s (%.0f/s), %d errors, not counted%n",
                    o.warmup, warm.wallNanos / 1e9, o.warmup / (warm.wallNanos / 1e9), warm.errors.sum());
        }

        Map<String, Long> before = null;
        Phase phase = new Phase("m-" + runId, o.payments, o, http, true);
        try {
            if (o.simulatorUrl != null) {
                admin.setLatency(o.latencyMs);
                before = admin.stats();
            }
            phase.run();
        } finally {
            if (o.simulatorUrl != null && o.latencyMs > 0) {
                admin.setLatency(0);
            }
        }
        Map<String, Long> after = o.simulatorUrl == null ? null : admin.stats();
        return report(o, phase, before, after);
    }

    private int report(Options o, Phase p, Map<String, Long> before, Map<String, Long> after) {
        long[] sorted = p.answeredLatencies();
        Arrays.sort(sorted);
        double seconds = p.wallNanos / 1e9;
        long answered = sorted.length;
        double rate = answered / seconds;
        double p50 = ms(percentile(sorted, 50));
        double p90 = ms(percentile(sorted, 90));
        double p99 = ms(percentile(sorted, 99));
        double max = ms(sorted.length == 0 ? 0 : sorted[sorted.length - 1]);
        double mean = sorted.length == 0 ? 0 : ms(Arrays.stream(sorted).sum() / sorted.length);
        long errors = p.errors.sum();
        long captured = p.captured201.sum();

        OUT.printf(Locale.ROOT, "  throughput  %.1f payments/s (%d answered in %.2f s)%n", rate, answered, seconds);
        OUT.printf(Locale.ROOT, "  latency ms  p50 %.1f  p90 %.1f  p99 %.1f  max %.1f  mean %.1f%n",
                p50, p90, p99, max, mean);
        OUT.println("  http        " + counts(p.byHttpStatus));
        OUT.println("  status      " + counts(p.byBodyStatus));
        OUT.println("  errors      " + errors + " transport" + (p.errorSamples.isEmpty() ? ""
                : ", e.g. " + String.join(" | ", p.errorSamples)));
        for (String problem : p.problemSamples) {
            OUT.println("  problem     " + problem);
        }
        OUT.printf(Locale.ROOT, "  in flight   peak %d (sampled every %d ms; exact peak %d)%n",
                p.sampledPeak.get(), SAMPLE_EVERY_MS, p.exactPeak.get());
        if (o.latencyMs > 0) {
            OUT.println("  timeline    in flight every 100 ms: " + p.timeline());
            if (!p.poolSamples.isEmpty()) {
                OUT.println("  db pool     " + p.poolSummary());
            }
        }

        boolean moneyOk = true;
        long moved = -1;
        if (before != null && after != null) {
            moved = after.getOrDefault("money_movements", 0L) - before.getOrDefault("money_movements", 0L);
            long charges = after.getOrDefault("charge_requests", 0L) - before.getOrDefault("charge_requests", 0L);
            long lookups = after.getOrDefault("lookups", 0L) - before.getOrDefault("lookups", 0L);
            moneyOk = moved == captured;
            OUT.printf(Locale.ROOT, "  simulator   money movements %d -> %d (+%d) vs %d answers 201 captured: %s%n",
                    before.get("money_movements"), after.get("money_movements"), moved, captured,
                    moneyOk ? "OK, exactly once each" : "MISMATCH");
            OUT.printf(Locale.ROOT, "              charge requests +%d, lookups +%d%n", charges, lookups);
            if (!moneyOk) {
                OUT.println("              (answers other than 201 captured, e.g. 202 processing or transport errors,"
                        + " may settle later; rerun /_sim/stats to see)");
            }
        }
        OUT.printf(Locale.ROOT, "RESULT payments_per_s=%.1f p50_ms=%.1f p99_ms=%.1f max_ms=%.1f errors=%d "
                        + "peak_in_flight=%d p90_ms=%.1f captured=%d money_movements=%d%n",
                rate, p50, p99, max, errors, p.sampledPeak.get(), p90, captured, moved);
        return moneyOk ? 0 : 2;
    }

    private static String counts(Map<String, LongAdder> map) {
        if (map.isEmpty()) {
            return "-";
        }
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(map).forEach((k, v) -> sb.append(sb.isEmpty() ? "" : "  ").append(k).append('=').append(v.sum()));
        return sb.toString();
    }

    private static long percentile(long[] sorted, double pct) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(pct / 100.0 * sorted.length); // nearest-rank
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    /** One batch of payments at the configured concurrency. */
    private static final class Phase {
        final String prefix;
        final int count;
        final Options o;
        final HttpClient http;
        final boolean measured;
        final long[] latencies;
        final AtomicInteger next = new AtomicInteger();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger exactPeak = new AtomicInteger();
        final AtomicInteger sampledPeak = new AtomicInteger();
        final AtomicLong done = new AtomicLong();
        final LongAdder errors = new LongAdder();
        final LongAdder captured201 = new LongAdder();
        final Map<String, LongAdder> byHttpStatus = new ConcurrentHashMap<>();
        final Map<String, LongAdder> byBodyStatus = new ConcurrentHashMap<>();
        final ConcurrentLinkedQueue<String> errorSamples = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<String> problemSamples = new ConcurrentLinkedQueue<>();
        final List<Integer> samples = new ArrayList<>();
        final List<long[]> poolSamples = new ArrayList<>();
        long wallNanos;

        Phase(String prefix, int count, Options o, HttpClient http, boolean measured) {
            this.prefix = prefix;
            this.count = count;
            this.o = o;
            this.http = http;
            this.measured = measured;
            this.latencies = new long[count];
            Arrays.fill(latencies, -1);
        }

        void run() throws InterruptedException {
            AtomicBoolean running = new AtomicBoolean(true);
            Thread sampler = measured ? Thread.ofVirtual().name("sampler").start(() -> sample(running)) : null;
            Thread progress = measured ? Thread.ofVirtual().name("progress").start(() -> progress(running)) : null;
            long start = System.nanoTime();
            Thread[] workers = new Thread[Math.min(o.concurrency, count)];
            for (int w = 0; w < workers.length; w++) {
                workers[w] = Thread.ofVirtual().name("worker-" + w).start(this::work);
            }
            for (Thread worker : workers) {
                worker.join();
            }
            wallNanos = System.nanoTime() - start;
            running.set(false);
            if (sampler != null) {
                sampler.interrupt();
                sampler.join();
                progress.interrupt();
                progress.join();
            }
        }

        private void work() {
            int i;
            while ((i = next.getAndIncrement()) < count) {
                String body = "{\"reference\":\"" + prefix + "-" + i + "\",\"amount\":" + o.amount
                        + ",\"currency\":\"" + o.currency + "\",\"payment_method\":\"" + o.method + "\"}";
                HttpRequest request = HttpRequest.newBuilder(o.url.resolve("/v1/payments"))
                        .timeout(o.timeout)
                        .header("Authorization", "Bearer " + o.apiKey)
                        .header("Idempotency-Key", "idem-" + prefix + "-" + i)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build();
                int now = inFlight.incrementAndGet();
                exactPeak.accumulateAndGet(now, Math::max);
                long t0 = System.nanoTime();
                try {
                    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                    latencies[i] = System.nanoTime() - t0;
                    record(response.statusCode(), response.body());
                } catch (IOException e) {
                    errors.increment();
                    if (errorSamples.size() < 3) {
                        errorSamples.add(e.getClass().getSimpleName() + ": " + e.getMessage());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } finally {
                    inFlight.decrementAndGet();
                    done.incrementAndGet();
                }
            }
        }

        private void record(int httpStatus, String body) {
            byHttpStatus.computeIfAbsent(Integer.toString(httpStatus), k -> new LongAdder()).increment();
            String status = null;
            String code = null;
            Matcher m = STRING_FIELD.matcher(body == null ? "" : body);
            while (m.find() && (status == null || code == null)) {
                if (m.group(1).equals("status") && status == null) {
                    status = m.group(2);
                } else if (m.group(1).equals("code") && code == null) {
                    code = m.group(2);
                }
            }
            String label = httpStatus >= 400 ? "problem:" + (code == null ? httpStatus : code)
                    : (status == null ? "none" : status);
            byBodyStatus.computeIfAbsent(label, k -> new LongAdder()).increment();
            if (httpStatus == 201 && "captured".equals(status)) {
                captured201.increment();
            }
            if ((httpStatus >= 400 || httpStatus == 202) && problemSamples.size() < 3) {
                problemSamples.add(httpStatus + " " + (body == null ? "" : body.substring(0, Math.min(300, body.length()))));
            }
        }

        private void sample(AtomicBoolean running) {
            Admin pool = o.latencyMs > 0 ? new Admin(http, o) : null;
            boolean poolMetrics = pool != null;
            long next = System.nanoTime();
            while (running.get()) {
                int now = inFlight.get();
                sampledPeak.accumulateAndGet(now, Math::max);
                samples.add(now);
                if (poolMetrics) {
                    long[] active = pool.poolMetrics();
                    if (active == null) {
                        poolMetrics = false;
                    } else {
                        poolSamples.add(active);
                    }
                }
                next += SAMPLE_EVERY_MS * 1_000_000;
                long sleep = next - System.nanoTime();
                if (sleep > 0) {
                    try {
                        Thread.sleep(Duration.ofNanos(sleep));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }

        private void progress(AtomicBoolean running) {
            long start = System.nanoTime();
            long last = 0;
            while (running.get()) {
                try {
                    Thread.sleep(5_000);
                } catch (InterruptedException e) {
                    return;
                }
                long d = done.get();
                System.err.printf(Locale.ROOT, "  ... %d/%d done, %.0f/s over the last 5 s, %d in flight, %.0f s%n",
                        d, count, (d - last) / 5.0, inFlight.get(), (System.nanoTime() - start) / 1e9);
                last = d;
            }
        }

        long[] answeredLatencies() {
            return Arrays.stream(latencies).filter(l -> l >= 0).toArray();
        }

        /** The in-flight samples, runs of equal values collapsed as value x count. */
        String timeline() {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < samples.size(); ) {
                int v = samples.get(i);
                int j = i;
                while (j < samples.size() && samples.get(j) == v) {
                    j++;
                }
                sb.append(sb.isEmpty() ? "" : " ").append(v).append(j - i > 1 ? "x" + (j - i) : "");
                i = j;
            }
            return sb.toString();
        }

        String poolSummary() {
            long maxActive = 0;
            long maxPending = 0;
            for (long[] s : poolSamples) {
                maxActive = Math.max(maxActive, s[0]);
                maxPending = Math.max(maxPending, s[1]);
            }
            return "Hikari connections: peak active " + maxActive + ", peak pending " + maxPending + " ("
                    + poolSamples.size() + " samples of /actuator/metrics/hikaricp.connections.*)";
        }
    }

    /** The simulator's admin API and Kopek's pool metrics. */
    private static final class Admin {
        final HttpClient http;
        final Options o;

        Admin(HttpClient http, Options o) {
            this.http = http;
            this.o = o;
        }

        void setLatency(long millis) throws IOException, InterruptedException {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(o.simulatorUrl.resolve("/_sim/config"))
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"latency_min_ms\":" + millis + ",\"latency_max_ms\":" + millis + "}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException("POST /_sim/config answered " + r.statusCode() + ": " + r.body());
            }
        }

        Map<String, Long> stats() throws IOException, InterruptedException {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(o.simulatorUrl.resolve("/_sim/stats"))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException("GET /_sim/stats answered " + r.statusCode() + ": " + r.body());
            }
            Map<String, Long> out = new HashMap<>();
            Matcher m = NUMBER_FIELD.matcher(r.body());
            while (m.find()) {
                out.put(m.group(1), (long) Double.parseDouble(m.group(2)));
            }
            return out;
        }

        /** {active, pending} from Kopek's actuator, or null when the metrics are not exposed. */
        long[] poolMetrics() {
            try {
                return new long[] {metric("hikaricp.connections.active"), metric("hikaricp.connections.pending")};
            } catch (IOException | RuntimeException e) {
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }

        private long metric(String name) throws IOException, InterruptedException {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(o.url.resolve("/actuator/metrics/" + name))
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException(name + " answered " + r.statusCode());
            }
            Matcher m = Pattern.compile("\"value\"\\s*:\\s*(-?[0-9.eE+-]+)").matcher(r.body());
            if (!m.find()) {
                throw new IOException(name + " has no value");
            }
            return (long) Double.parseDouble(m.group(1));
        }
    }

    private record Options(URI url, String apiKey, URI simulatorUrl, int payments, int concurrency, int warmup,
            long latencyMs, String currency, String method, long amount, Duration timeout) {

        static final String USAGE = """
                usage: java -jar benchmarks.jar --api-key KEY [flags]
                  --url URL            Kopek base URL (default http://127.0.0.1:8080)
                  --api-key KEY        merchant API key (or env KOPEK_API_KEY)
                  --simulator-url URL  acquirer simulator base URL; enables the money-movement check and --latency-ms
                  --payments N         measured payments (default 20000)
                  --concurrency C      concurrent requests (default 64)
                  --warmup W           payments before the measured run, at zero latency, not counted (default 2000)
                  --latency-ms L       simulator latency L..L ms for the measured run, reset to 0 after (default 0)
                  --currency CUR       (default EUR)
                  --method PM          payment_method (default pm_ok)
                  --amount MINOR       amount in minor units (default 1000)
                  --timeout-s S        per-request timeout (default 60)
                """;

        static Options parse(String[] args) {
            Map<String, String> m = new HashMap<>();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--help") || a.equals("-h")) {
                    return null;
                }
                if (!a.startsWith("--")) {
                    throw new IllegalArgumentException("unexpected argument " + a);
                }
                String key = a.substring(2);
                String value;
                int eq = key.indexOf('=');
                if (eq >= 0) {
                    value = key.substring(eq + 1);
                    key = key.substring(0, eq);
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                m.put(key, value);
            }
            List<String> known = List.of("url", "api-key", "simulator-url", "payments", "concurrency", "warmup",
                    "latency-ms", "currency", "method", "amount", "timeout-s");
            for (String k : m.keySet()) {
                if (!known.contains(k)) {
                    throw new IllegalArgumentException("unknown flag --" + k);
                }
            }
            String apiKey = m.getOrDefault("api-key", System.getenv("KOPEK_API_KEY"));
            if (apiKey == null || apiKey.isBlank()) {
                throw new IllegalArgumentException("--api-key is required");
            }
            String sim = m.get("simulator-url");
            Options o = new Options(URI.create(m.getOrDefault("url", "http://127.0.0.1:8080")), apiKey,
                    sim == null ? null : URI.create(sim),
                    positive(m, "payments", 20000), positive(m, "concurrency", 64),
                    (int) nonNegative(m, "warmup", 2000), nonNegative(m, "latency-ms", 0),
                    m.getOrDefault("currency", "EUR"), m.getOrDefault("method", "pm_ok"),
                    nonNegative(m, "amount", 1000), Duration.ofSeconds(positive(m, "timeout-s", 60)));
            if (o.latencyMs > 0 && o.simulatorUrl == null) {
                throw new IllegalArgumentException("--latency-ms needs --simulator-url");
            }
            return o;
        }

        private static int positive(Map<String, String> m, String key, int dflt) {
            long v = nonNegative(m, key, dflt);
            if (v < 1 || v > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("--" + key + " must be a positive integer");
            }
            return (int) v;
        }

        private static long nonNegative(Map<String, String> m, String key, long dflt) {
            String s = m.get(key);
            if (s == null) {
                return dflt;
            }
            try {
                long v = Long.parseLong(s);
                if (v < 0) {
                    throw new NumberFormatException();
                }
                return v;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--" + key + " must be a non-negative integer, was " + s);
            }
        }
    }
}
