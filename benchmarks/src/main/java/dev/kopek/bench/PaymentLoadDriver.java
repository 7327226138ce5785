package dev.kopek.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
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
 *
 * <p>With {@code --rate R} the measured run is an open loop instead: payment i is due at start + i/R, each is sent
 * on its own virtual thread whatever the answers before it do, and its latency counts from when it was due (a
 * late send is the system's delay, not the client's: no coordinated omission). {@code --before-measure} and
 * {@code --after-measure} run a shell command right around the measured run (benchmarks/run-side-by-side.sh
 * snapshots CPU times and database statistics there, so the warmup is not counted).
 */
public final class PaymentLoadDriver {

    private static final PrintStream OUT = System.out;
    private static final Pattern STRING_FIELD = Pattern.compile("\"(status|code)\"\\s*:\\s*\"([^\"]{0,64})\"");
    private static final Pattern NUMBER_FIELD =
            Pattern.compile("\"([a-z_.]+)\"\\s*:\\s*(-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)");
    private static final Pattern MEASUREMENT =
            Pattern.compile("\"statistic\"\\s*:\\s*\"([A-Z_]+)\"\\s*,\\s*\"value\"\\s*:\\s*(-?[0-9.eE+-]+)");
    private static final long SAMPLE_EVERY_MS = 100;

    private PaymentLoadDriver() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("mixed")) {
            MixedWorkload.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        Launcher.launch(args, Options::parse, Options.USAGE, options -> new PaymentLoadDriver().run(options));
    }

    private int run(Options o) throws Exception {
        // Virtual threads for the client's own tasks too: measured a little cheaper than its default pool.
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .build();
        Admin admin = new Admin(http, o.url, o.simulatorUrl);
        // Payments go through the driver's own keep-alive client; the few admin calls through the JDK's.
        Http1 payments = new Http1(o.url, o.timeout);
        String runId = Launcher.runId();

        OUT.printf(
                Locale.ROOT,
                "Kopek payment load: %s, %d payments (+%d warmup), %s, %s %d %s, "
                        + "simulator latency %d..%d ms, run %s%n",
                o.url,
                o.payments,
                o.warmup,
                o.openLoop()
                        ? String.format(Locale.ROOT, "open loop at %.1f/s", o.rate)
                        : "concurrency " + o.concurrency,
                o.method,
                o.amount,
                o.currency,
                o.latencyMs,
                o.latencyMaxMs(),
                runId);

        if (o.simulatorUrl != null) {
            admin.setLatency(0); // warm up at zero latency whatever the measured run uses
        }
        if (o.warmup > 0) {
            Phase warm = new Phase("w-" + runId, o.warmup, o, payments, false);
            warm.run();
            OUT.printf(
                    Locale.ROOT,
                    "  warmup      %d payments in %.1f s (%.0f/s), %d errors, not counted%n",
                    o.warmup,
                    warm.wallNanos / 1e9,
                    o.warmup / (warm.wallNanos / 1e9),
                    warm.errors.sum());
        }

        Map<String, Long> before = null;
        PoolFigures poolBefore = admin.pool();
        Phase phase = new Phase("m-" + runId, o.payments, o, payments, true);
        // Ctrl-C during a latency run must not leave the simulator slow for whoever uses it next.
        Thread resetLatency = new Thread(() -> {
            try {
                admin.setLatency(0);
            } catch (IOException | InterruptedException e) {
                System.err.println("could not reset the simulator latency: " + e);
            }
        });
        boolean slowed = o.simulatorUrl != null && o.latencyMaxMs() > 0;
        try {
            if (o.simulatorUrl != null) {
                if (slowed) {
                    Runtime.getRuntime().addShutdownHook(resetLatency);
                }
                admin.setLatency(o.latencyMs, o.latencyMaxMs());
                before = admin.stats();
            }
            hook(o.beforeMeasure);
            phase.run();
            hook(o.afterMeasure);
        } finally {
            if (slowed) {
                admin.setLatency(0);
                Runtime.getRuntime().removeShutdownHook(resetLatency);
            }
        }
        Map<String, Long> after = o.simulatorUrl == null ? null : admin.stats();
        PoolFigures poolAfter = poolBefore == null ? null : admin.pool();
        return report(o, phase, before, after, poolBefore, poolAfter);
    }

    /** Runs a shell command to its end, its output going to ours; a failing hook is reported, not fatal. */
    static void hook(String command) throws IOException, InterruptedException {
        if (command == null || command.isBlank()) {
            return;
        }
        int rc = new ProcessBuilder("bash", "-c", command).inheritIO().start().waitFor();
        if (rc != 0) {
            System.err.println("hook exited with " + rc + ": " + command);
        }
    }

    private int report(
            Options o,
            Phase p,
            Map<String, Long> before,
            Map<String, Long> after,
            PoolFigures poolBefore,
            PoolFigures poolAfter) {
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

        OUT.printf(
                Locale.ROOT,
                "  throughput  %.1f payments/s captured (201), %.1f answers/s (%d answered in %.2f s)%s%n",
                captured / seconds,
                rate,
                answered,
                seconds,
                o.openLoop()
                        ? String.format(
                                Locale.ROOT,
                                ", offered %.1f/s open loop; latency from each payment's "
                                        + "due time; sender fell behind by %.1f ms at most",
                                o.rate,
                                p.maxSendLagNanos / 1e6)
                        : "");
        OUT.printf(
                Locale.ROOT,
                "  latency ms  p50 %.1f  p90 %.1f  p99 %.1f  max %.1f  mean %.1f%n",
                p50,
                p90,
                p99,
                max,
                mean);
        OUT.println("  http        " + counts(p.byHttpStatus));
        OUT.println("  status      " + counts(p.byBodyStatus));
        OUT.println("  errors      " + errors + " transport"
                + (p.errorSamples.isEmpty() ? "" : ", e.g. " + String.join(" | ", p.errorSamples)));
        for (String problem : p.problemSamples) {
            OUT.println("  problem     " + problem);
        }
        OUT.println("  cpu         " + p.cpuSummary());
        OUT.printf(
                Locale.ROOT,
                "  in flight   peak %d (sampled every %d ms; exact peak %d)%n",
                p.sampledPeak.get(),
                SAMPLE_EVERY_MS,
                p.exactPeak.get());
        if (o.latencyMs > 0 || o.latencyMaxMs() > 0 || o.openLoop()) {
            OUT.println("  timeline    in flight every 100 ms: " + p.timeline());
        }
        if (poolBefore != null && poolAfter != null) {
            OUT.println("  db pool     " + poolAfter.describe(poolBefore, p.count));
        }

        boolean moneyOk = true;
        long moved = -1;
        if (before != null && after != null) {
            moved = after.getOrDefault("money_movements", 0L) - before.getOrDefault("money_movements", 0L);
            long charges = after.getOrDefault("charge_requests", 0L) - before.getOrDefault("charge_requests", 0L);
            long lookups = after.getOrDefault("lookups", 0L) - before.getOrDefault("lookups", 0L);
            moneyOk = moved == captured;
            OUT.printf(
                    Locale.ROOT,
                    "  simulator   money movements %d -> %d (+%d) vs %d answers 201 captured: %s%n",
                    before.get("money_movements"),
                    after.get("money_movements"),
                    moved,
                    captured,
                    moneyOk ? "OK, exactly once each" : "MISMATCH");
            OUT.printf(Locale.ROOT, "              charge requests +%d, lookups +%d%n", charges, lookups);
            if (!moneyOk) {
                OUT.println("              (answers other than 201 captured, e.g. 202 processing or transport errors,"
                        + " may settle later; rerun /_sim/stats to see)");
            }
        }
        OUT.printf(
                Locale.ROOT,
                "RESULT payments_per_s=%.1f p50_ms=%.1f p99_ms=%.1f max_ms=%.1f errors=%d "
                        + "peak_in_flight=%d p90_ms=%.1f captured=%d money_movements=%d offered_per_s=%.1f "
                        + "captured_per_s=%.1f%n",
                rate,
                p50,
                p99,
                max,
                errors,
                p.sampledPeak.get(),
                p90,
                captured,
                moved,
                o.openLoop() ? o.rate : 0.0,
                captured / seconds);
        return moneyOk ? 0 : 2;
    }

    static String counts(Map<String, LongAdder> map) {
        if (map.isEmpty()) {
            return "-";
        }
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(map)
                .forEach((k, v) -> sb.append(sb.isEmpty() ? "" : "  ")
                        .append(k)
                        .append('=')
                        .append(v.sum()));
        return sb.toString();
    }

    static long percentile(long[] sorted, double pct) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(pct / 100.0 * sorted.length); // nearest-rank
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }

    /** One batch of payments at the configured concurrency. */
    private static final class Phase {
        final String prefix;
        final int count;
        final Options o;
        final Http1 http;
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
        long wallNanos;
        volatile long maxSendLagNanos;
        long driverCpuNanos = -1;
        long[] machineBefore;
        long[] machineAfter;

        Phase(String prefix, int count, Options o, Http1 http, boolean measured) {
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
            long cpuBefore = driverCpuNanos();
            machineBefore = machineJiffies();
            long start = System.nanoTime();
            if (measured && o.openLoop()) {
                openLoop(start);
            } else {
                Thread[] workers = new Thread[Math.min(o.concurrency, count)];
                for (int w = 0; w < workers.length; w++) {
                    workers[w] = Thread.ofVirtual().name("worker-" + w).start(this::work);
                }
                for (Thread worker : workers) {
                    worker.join();
                }
            }
            wallNanos = System.nanoTime() - start;
            machineAfter = machineJiffies();
            long cpuAfter = driverCpuNanos();
            driverCpuNanos = cpuBefore < 0 || cpuAfter < 0 ? -1 : cpuAfter - cpuBefore;
            running.set(false);
            if (sampler != null) {
                sampler.interrupt();
                sampler.join();
                progress.interrupt();
                progress.join();
            }
        }

        /** Payment i is due at start + i / rate and goes out on its own thread, answered or not those before it. */
        private void openLoop(long start) throws InterruptedException {
            double intervalNanos = 1e9 / o.rate;
            Thread[] senders = new Thread[count];
            for (int i = 0; i < count; i++) {
                long due = start + (long) (i * intervalNanos);
                long wait;
                while ((wait = due - System.nanoTime()) > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                }
                long lag = -wait;
                if (lag > maxSendLagNanos) {
                    maxSendLagNanos = lag;
                }
                int n = i;
                senders[i] = Thread.ofVirtual().start(() -> send(n, due));
            }
            for (Thread sender : senders) {
                sender.join();
            }
        }

        private void work() {
            int i;
            while ((i = next.getAndIncrement()) < count) {
                if (!send(i, System.nanoTime())) {
                    return;
                }
            }
        }

        /** Sends payment i; its latency runs from t0. False when interrupted. */
        private boolean send(int i, long t0) {
            String body = "{\"reference\":\"" + prefix + "-" + i + "\",\"amount\":" + o.amount + ",\"currency\":\""
                    + o.currency + "\",\"payment_method\":\"" + o.method + "\"}";
            int now = inFlight.incrementAndGet();
            exactPeak.accumulateAndGet(now, Math::max);
            try {
                Http1.Answer answer = http.post(
                        "/v1/payments",
                        body,
                        "Authorization: Bearer " + o.apiKey,
                        "Idempotency-Key: idem-" + prefix + "-" + i);
                latencies[i] = System.nanoTime() - t0;
                record(answer.status(), answer.body());
            } catch (IOException e) {
                errors.increment();
                if (errorSamples.size() < 3) {
                    errorSamples.add(e.getClass().getSimpleName() + ": " + e.getMessage());
                }
            } finally {
                inFlight.decrementAndGet();
                done.incrementAndGet();
            }
            return true;
        }

        private void record(int httpStatus, String body) {
            byHttpStatus
                    .computeIfAbsent(Integer.toString(httpStatus), k -> new LongAdder())
                    .increment();
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
            String label = httpStatus >= 400
                    ? "problem:" + (code == null ? httpStatus : code)
                    : (status == null ? "none" : status);
            byBodyStatus.computeIfAbsent(label, k -> new LongAdder()).increment();
            if (httpStatus == 201 && "captured".equals(status)) {
                captured201.increment();
            }
            if ((httpStatus >= 400 || httpStatus == 202) && problemSamples.size() < 3) {
                problemSamples.add(
                        httpStatus + " " + (body == null ? "" : body.substring(0, Math.min(300, body.length()))));
            }
        }

        private void sample(AtomicBoolean running) {
            long next = System.nanoTime();
            while (running.get()) {
                int now = inFlight.get();
                sampledPeak.accumulateAndGet(now, Math::max);
                samples.add(now);
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
                System.err.printf(
                        Locale.ROOT,
                        "  ... %d/%d done, %.0f/s over the last 5 s, %d in flight, %.0f s%n",
                        d,
                        count,
                        (d - last) / 5.0,
                        inFlight.get(),
                        (System.nanoTime() - start) / 1e9);
                last = d;
            }
        }

        /** The driver's own CPU share (all cores count: 100% = the whole machine) and the machine's, if known. */
        String cpuSummary() {
            int cores = Runtime.getRuntime().availableProcessors();
            StringBuilder sb = new StringBuilder();
            if (driverCpuNanos >= 0) {
                sb.append(String.format(
                        Locale.ROOT,
                        "driver %.1f s = %.0f%% of %d cores",
                        driverCpuNanos / 1e9,
                        100.0 * driverCpuNanos / wallNanos / cores,
                        cores));
            }
            if (machineBefore != null && machineAfter != null) {
                long busy = machineAfter[0] - machineBefore[0];
                long all = machineAfter[1] - machineBefore[1];
                if (all > 0) {
                    sb.append(String.format(
                            Locale.ROOT,
                            "%smachine busy %.0f%% (/proc/stat)",
                            sb.isEmpty() ? "" : ", ",
                            100.0 * busy / all));
                }
            }
            return sb.isEmpty() ? "n/a" : sb.toString();
        }

        private static long driverCpuNanos() {
            return ProcessHandle.current()
                    .info()
                    .totalCpuDuration()
                    .map(Duration::toNanos)
                    .orElse(-1L);
        }

        /** {busy, total} jiffies from /proc/stat on Linux, else null. */
        private static long[] machineJiffies() {
            try {
                String[] f = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat"))
                        .getFirst()
                        .trim()
                        .split("\\s+");
                long total = 0;
                for (int i = 1; i < f.length; i++) {
                    total += Long.parseLong(f[i]);
                }
                long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
                return new long[] {total - idle, total};
            } catch (IOException | RuntimeException e) {
                return null;
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
    }

    /** The simulator's admin API and Kopek's pool metrics. */
    static final class Admin {
        final HttpClient http;
        final URI url;
        final URI simulatorUrl;

        Admin(HttpClient http, URI url, URI simulatorUrl) {
            this.http = http;
            this.url = url;
            this.simulatorUrl = simulatorUrl;
        }

        void setLatency(long millis) throws IOException, InterruptedException {
            setLatency(millis, millis);
        }

        void setLatency(long min, long max) throws IOException, InterruptedException {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(simulatorUrl.resolve("/_sim/config"))
                            .timeout(Duration.ofSeconds(10))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"latency_min_ms\":" + min + ",\"latency_max_ms\":" + max + "}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException("POST /_sim/config answered " + r.statusCode() + ": " + r.body());
            }
        }

        Map<String, Long> stats() throws IOException, InterruptedException {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(simulatorUrl.resolve("/_sim/stats"))
                            .timeout(Duration.ofSeconds(10))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
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

        /** The simulator's movements of one charge (authorization, captures, voids, refunds), as its JSON array. */
        String movements(String chargeId) throws IOException, InterruptedException {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(simulatorUrl.resolve(
                                    "/_sim/movements?charge_id=" + URLEncoder.encode(chargeId, StandardCharsets.UTF_8)))
                            .timeout(Duration.ofSeconds(10))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException("GET /_sim/movements answered " + r.statusCode() + ": " + r.body());
            }
            return r.body();
        }

        /** Kopek's Hikari pool figures from the actuator, or null when they are not exposed. */
        PoolFigures pool() {
            try {
                double[] usage = timer("hikaricp.connections.usage");
                double[] acquire = timer("hikaricp.connections.acquire");
                double[] timeouts = timer("hikaricp.connections.timeout");
                double[] max = timer("hikaricp.connections.max");
                return new PoolFigures(
                        (long) max[3], (long) usage[0], usage[1], usage[2], acquire[1], acquire[2], (long) timeouts[0]);
            } catch (IOException | RuntimeException e) {
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }

        /** {COUNT, TOTAL_TIME, MAX, VALUE} of one actuator metric, 0 where absent. */
        private double[] timer(String name) throws IOException, InterruptedException {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(url.resolve("/actuator/metrics/" + name))
                            .timeout(Duration.ofSeconds(5))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException(name + " answered " + r.statusCode());
            }
            double[] out = new double[4];
            Matcher m = MEASUREMENT.matcher(r.body());
            while (m.find()) {
                double v = Double.parseDouble(m.group(2));
                switch (m.group(1)) {
                    case "COUNT" -> out[0] = v;
                    case "TOTAL_TIME" -> out[1] = v;
                    case "MAX" -> out[2] = v;
                    case "VALUE" -> out[3] = v;
                    default -> {}
                }
            }
            return out;
        }
    }

    /** Hikari figures; times in seconds, as the actuator gives them. */
    private record PoolFigures(
            long size,
            long borrows,
            double heldTotal,
            double heldMax,
            double waitTotal,
            double waitMax,
            long timeouts) {

        String describe(PoolFigures before, long payments) {
            long n = borrows - before.borrows;
            if (n <= 0) {
                return "no borrows seen";
            }
            return String.format(
                    Locale.ROOT,
                    "pool %d; %.1f borrows/payment; a connection held %.1f ms mean "
                            + "(max %.0f ms*), waited for %.1f ms mean (max %.0f ms*); %d acquire timeouts "
                            + "(*max over Micrometer's ~2 min window, may include warmup)",
                    size,
                    (double) n / Math.max(1, payments),
                    (heldTotal - before.heldTotal) * 1000 / n,
                    heldMax * 1000,
                    (waitTotal - before.waitTotal) * 1000 / n,
                    waitMax * 1000,
                    timeouts - before.timeouts);
        }
    }

    record Options(
            URI url,
            String apiKey,
            URI simulatorUrl,
            int payments,
            int concurrency,
            int warmup,
            long latencyMs,
            long latencyMax,
            String currency,
            String method,
            long amount,
            Duration timeout,
            double rate,
            String beforeMeasure,
            String afterMeasure) {

        boolean openLoop() {
            return rate > 0;
        }

        long latencyMaxMs() {
            return Math.max(latencyMs, latencyMax);
        }

        static final String USAGE = """
                usage: java -jar benchmarks.jar --api-key KEY [flags]
                  --url URL            Kopek base URL (default http://127.0.0.1:8080)
                  --api-key KEY        merchant API key (or env KOPEK_API_KEY)
                  --simulator-url URL  acquirer simulator base URL; enables the money-movement check and --latency-ms
                  --payments N         measured payments (default 20000)
                  --concurrency C      concurrent requests (default 64)
                  --warmup W           payments before the measured run, at zero latency, not counted (default 2000)
                  --latency-ms L       simulator latency L..L ms for the measured run, reset to 0 after (default 0)
                  --latency-max-ms M   with --latency-ms L: uniform L..M ms instead
                  --rate R             open loop: the measured payments are sent at R per second, each on its own
                                       thread (--concurrency then only applies to the warmup)
                  --duration-s S       open loop: send for S seconds (payments = R x S; overrides --payments)
                  --before-measure CMD shell command run after the warmup, right before the measured run
                  --after-measure CMD  shell command run right after the measured run
                  --currency CUR       (default EUR)
                  --method PM          payment_method (default pm_ok)
                  --amount MINOR       amount in minor units (default 1000)
                  --timeout-s S        per-request timeout (default 60)
                """;

        static Options parse(String[] args) {
            List<String> known = List.of(
                    "url",
                    "api-key",
                    "simulator-url",
                    "payments",
                    "concurrency",
                    "warmup",
                    "latency-ms",
                    "latency-max-ms",
                    "currency",
                    "method",
                    "amount",
                    "timeout-s",
                    "rate",
                    "duration-s",
                    "before-measure",
                    "after-measure");
            Map<String, String> m = flags(args, known);
            if (m == null) {
                return null;
            }
            String apiKey = m.getOrDefault("api-key", System.getenv("KOPEK_API_KEY"));
            if (apiKey == null || apiKey.isBlank()) {
                throw new IllegalArgumentException("--api-key is required");
            }
            String sim = m.get("simulator-url");
            double rate = m.containsKey("rate") ? Double.parseDouble(m.get("rate")) : 0;
            if (rate < 0 || Double.isNaN(rate) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("--rate must be a positive number");
            }
            int payments = positive(m, "payments", 20000);
            if (rate > 0 && m.containsKey("duration-s")) {
                payments = (int) Math.max(1, Math.round(rate * positive(m, "duration-s", 20)));
            }
            Options o = new Options(
                    URI.create(m.getOrDefault("url", "http://127.0.0.1:8080")),
                    apiKey,
                    sim == null ? null : URI.create(sim),
                    payments,
                    positive(m, "concurrency", 64),
                    (int) nonNegative(m, "warmup", 2000),
                    nonNegative(m, "latency-ms", 0),
                    nonNegative(m, "latency-max-ms", 0),
                    m.getOrDefault("currency", "EUR"),
                    m.getOrDefault("method", "pm_ok"),
                    nonNegative(m, "amount", 1000),
                    Duration.ofSeconds(positive(m, "timeout-s", 60)),
                    rate,
                    m.get("before-measure"),
                    m.get("after-measure"));
            if (o.latencyMaxMs() > 0 && o.simulatorUrl == null) {
                throw new IllegalArgumentException("--latency-ms needs --simulator-url");
            }
            return o;
        }

        /** "--name value" and "--name=value" pairs, each name one of {@code known}; null when help was asked. */
        static Map<String, String> flags(String[] args, List<String> known) {
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
                if (!known.contains(key)) {
                    throw new IllegalArgumentException("unknown flag --" + key);
                }
                m.put(key, value);
            }
            return m;
        }

        static int positive(Map<String, String> m, String key, int dflt) {
            long v = nonNegative(m, key, dflt);
            if (v < 1 || v > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("--" + key + " must be a positive integer");
            }
            return (int) v;
        }

        static long nonNegative(Map<String, String> m, String key, long dflt) {
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
