package dev.kopek.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mixed workload beside the payment-only loop (issue 25): each flow authorizes a payment ({@code capture_method
 * manual}), captures it, and refunds a share of the captured payments, alternately in full and by a quarter. C
 * workers pull flow numbers from a shared counter (a closed loop), so a flow's steps run in order and flows overlap.
 *
 * <p>It prints operations per second and latency percentiles by kind, the answers by kind, and the at-most-once
 * check at the simulator: per charge its succeeded authorization, captures and refunds with their amounts, and in
 * all its charge requests, must equal the 2xx answers of each kind. A refund answers 202 {@code pending} and completes after the
 * answer, so the driver polls every refund until it succeeded or failed before it counts; the CPU snapshot after
 * the measured run is taken once they have, so the asynchronous half of a refund is in the figures. Run as
 * {@code java -jar benchmarks.jar mixed --help}.
 */
final class MixedWorkload {

    /** The operations of a flow, in the order a flow makes them. */
    enum Kind {
        AUTHORIZE,
        CAPTURE,
        REFUND;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final PrintStream OUT = System.out;
    private static final Pattern MOVEMENT = Pattern.compile(
            "\"type\"\\s*:\\s*\"([a-z_]+)\"\\s*,\\s*\"amount\"\\s*:\\s*(-?[0-9]+)[^}]*?\"status\"\\s*:\\s*\"([a-z_]+)\"");
    private static final Map<String, Pattern> FIELDS = new ConcurrentHashMap<>();
    private static final Duration POLL_PAUSE = Duration.ofMillis(200);
    private static final int CHECKERS = 16;

    private final Options o;
    private final Http1 http;
    private final String auth;

    private MixedWorkload(Options o) {
        this.o = o;
        this.http = new Http1(o.url, o.timeout);
        this.auth = "Authorization: Bearer " + o.apiKey;
    }

    static void main(String[] args) throws Exception {
        Launcher.launch(args, Options::parse, Options.USAGE, options -> new MixedWorkload(options).run());
    }

    private int run() throws Exception {
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .build();
        PaymentLoadDriver.Admin admin = new PaymentLoadDriver.Admin(client, o.url, o.simulatorUrl);
        String runId = Launcher.runId();
        OUT.printf(
                Locale.ROOT,
                "Kopek mixed workload: %s, %d flows (+%d warmup) at concurrency %d: authorize %d %s (manual capture),"
                        + " capture, refund %d%% of the captured (full and a quarter, alternately), run %s%n",
                o.url,
                o.flows,
                o.warmup,
                o.concurrency,
                o.amount,
                o.currency,
                o.refundPercent,
                runId);
        if (o.warmup > 0) {
            Flows warm = new Flows("mw-" + runId, o.warmup);
            warm.run();
            warm.settle();
            OUT.printf(Locale.ROOT, "  warmup      %d flows in %.1f s, not counted%n", o.warmup, warm.wallNanos / 1e9);
        }
        Map<String, Long> before = admin.stats();
        Flows flows = new Flows("mm-" + runId, o.flows);
        PaymentLoadDriver.hook(o.beforeMeasure);
        flows.run();
        long settleStart = System.nanoTime();
        flows.settle();
        long settleNanos = System.nanoTime() - settleStart;
        PaymentLoadDriver.hook(o.afterMeasure);
        Map<String, Long> after = admin.stats();
        flows.report();
        boolean ok = new MoneyCheck(flows, admin, o.amount).check(before, after, settleNanos);
        return ok ? 0 : 2;
    }

    /** One batch of flows and what they were answered. */
    private final class Flows {
        final String prefix;
        final int count;
        final long[][] latencies;
        final String[] charges;
        final boolean[] captured;
        final String[] refundIds;
        final long[] refundAmounts;
        final String[] refundOutcomes;
        final LongAdder[] succeeded = {new LongAdder(), new LongAdder(), new LongAdder()};
        final List<Map<String, LongAdder>> byHttpStatus = List.of(map(), map(), map());
        final List<Map<String, LongAdder>> byBodyStatus = List.of(map(), map(), map());
        final AtomicInteger next = new AtomicInteger();
        final LongAdder errors = new LongAdder();
        final ConcurrentLinkedQueue<String> samples = new ConcurrentLinkedQueue<>();
        long wallNanos;

        Flows(String prefix, int count) {
            this.prefix = prefix;
            this.count = count;
            this.latencies = new long[Kind.values().length][count];
            for (long[] l : latencies) {
                Arrays.fill(l, -1);
            }
            this.charges = new String[count];
            this.captured = new boolean[count];
            this.refundIds = new String[count];
            this.refundAmounts = new long[count];
            this.refundOutcomes = new String[count];
        }

        private static Map<String, LongAdder> map() {
            return new ConcurrentHashMap<>();
        }

        private static void count(Map<String, LongAdder> counts, String label) {
            counts.computeIfAbsent(label, k -> new LongAdder()).increment();
        }

        void run() throws InterruptedException {
            long start = System.nanoTime();
            Thread[] workers = new Thread[Math.min(o.concurrency, count)];
            for (int w = 0; w < workers.length; w++) {
                workers[w] = Thread.ofVirtual().name("flow-" + w).start(() -> {
                    int i;
                    while ((i = next.getAndIncrement()) < count) {
                        flow(i);
                    }
                });
            }
            for (Thread worker : workers) {
                worker.join();
            }
            wallNanos = System.nanoTime() - start;
        }

        /** Authorize, capture, and for a share of the flows refund; a step that is not answered as hoped ends it. */
        private void flow(int i) {
            String ref = prefix + "-" + i;
            String body = "{\"reference\":\"" + ref + "\",\"amount\":" + o.amount + ",\"currency\":\"" + o.currency
                    + "\",\"payment_method\":\"" + o.method + "\",\"capture_method\":\"manual\"}";
            Http1.Answer a = call(Kind.AUTHORIZE, i, "/v1/payments", body, "a-" + ref);
            if (a == null || a.status() != 201 || !"authorized".equals(field(a.body(), "status"))) {
                return;
            }
            succeeded[Kind.AUTHORIZE.ordinal()].increment();
            String payment = field(a.body(), "id");
            charges[i] = field(a.body(), "psp_reference");
            Http1.Answer c = call(Kind.CAPTURE, i, "/v1/payments/" + payment + "/capture", "{}", "c-" + ref);
            if (c == null || c.status() != 200 || !"captured".equals(field(c.body(), "status"))) {
                return;
            }
            succeeded[Kind.CAPTURE.ordinal()].increment();
            captured[i] = true;
            if (i % 100 >= o.refundPercent) {
                return;
            }
            long amount = i % 2 == 0 ? o.amount : Math.max(1, o.amount / 4);
            Http1.Answer r = call(
                    Kind.REFUND, i, "/v1/payments/" + payment + "/refunds", "{\"amount\":" + amount + "}", "r-" + ref);
            if (r == null || r.status() != 202) {
                return;
            }
            succeeded[Kind.REFUND.ordinal()].increment();
            refundIds[i] = field(r.body(), "id");
            refundAmounts[i] = amount;
        }

        private Http1.Answer call(Kind kind, int i, String path, String body, String key) {
            long t0 = System.nanoTime();
            try {
                Http1.Answer answer = http.post(path, body, auth, "Idempotency-Key: " + key);
                latencies[kind.ordinal()][i] = System.nanoTime() - t0;
                count(byHttpStatus.get(kind.ordinal()), Integer.toString(answer.status()));
                String status = answer.status() >= 400
                        ? "problem:" + field(answer.body(), "code")
                        : String.valueOf(field(answer.body(), "status"));
                count(byBodyStatus.get(kind.ordinal()), status);
                if (answer.status() >= 400 && samples.size() < 3) {
                    samples.add(kind.label() + " " + answer.status() + " "
                            + answer.body()
                                    .substring(0, Math.min(300, answer.body().length())));
                }
                return answer;
            } catch (IOException e) {
                errors.increment();
                if (samples.size() < 3) {
                    samples.add(kind.label() + " " + e.getClass().getSimpleName() + ": " + e.getMessage());
                }
                return null;
            }
        }

        /** Polls every pending refund until it succeeded or failed, or until the settle timeout. */
        void settle() throws InterruptedException {
            long deadline = System.nanoTime() + o.settleTimeout.toNanos();
            List<Integer> open = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                if (refundIds[i] != null) {
                    open.add(i);
                }
            }
            while (!open.isEmpty() && System.nanoTime() < deadline) {
                List<Integer> still = new ArrayList<>();
                for (int i : open) {
                    String outcome = refundOutcome(refundIds[i]);
                    if (outcome == null) {
                        still.add(i);
                    } else {
                        refundOutcomes[i] = outcome;
                    }
                }
                open = still;
                if (!open.isEmpty()) {
                    Thread.sleep(POLL_PAUSE);
                }
            }
        }

        /** "succeeded" or "failed", or null while the refund is pending (or could not be read). */
        private String refundOutcome(String refund) {
            try {
                Http1.Answer answer = http.get("/v1/refunds/" + refund, auth);
                String status = field(answer.body(), "status");
                return answer.status() == 200 && ("succeeded".equals(status) || "failed".equals(status))
                        ? status
                        : null;
            } catch (IOException e) {
                return null;
            }
        }

        long refunds(String outcome) {
            return Arrays.stream(refundOutcomes).filter(outcome::equals).count();
        }

        void report() {
            double seconds = wallNanos / 1e9;
            long answered = 0;
            StringBuilder rates = new StringBuilder();
            StringBuilder latency = new StringBuilder();
            StringBuilder result = new StringBuilder();
            for (Kind kind : Kind.values()) {
                long[] sorted = Arrays.stream(latencies[kind.ordinal()])
                        .filter(l -> l >= 0)
                        .sorted()
                        .toArray();
                answered += sorted.length;
                double p50 = PaymentLoadDriver.ms(PaymentLoadDriver.percentile(sorted, 50));
                double p90 = PaymentLoadDriver.ms(PaymentLoadDriver.percentile(sorted, 90));
                double p99 = PaymentLoadDriver.ms(PaymentLoadDriver.percentile(sorted, 99));
                double max = PaymentLoadDriver.ms(sorted.length == 0 ? 0 : sorted[sorted.length - 1]);
                double rate = sorted.length / seconds;
                rates.append(String.format(Locale.ROOT, ", %s %.1f/s", kind.label(), rate));
                latency.append(String.format(
                        Locale.ROOT,
                        "%s%s p50 %.1f  p90 %.1f  p99 %.1f  max %.1f",
                        latency.isEmpty() ? "" : " | ",
                        kind.label(),
                        p50,
                        p90,
                        p99,
                        max));
                result.append(String.format(
                        Locale.ROOT,
                        " %s_per_s=%.1f %s_p50_ms=%.1f %s_p99_ms=%.1f",
                        kind.label(),
                        rate,
                        kind.label(),
                        p50,
                        kind.label(),
                        p99));
            }
            OUT.printf(
                    Locale.ROOT,
                    "  throughput  %.1f flows/s, %.1f operations/s (%d answered in %.2f s)%s%n",
                    count / seconds,
                    answered / seconds,
                    answered,
                    seconds,
                    rates);
            OUT.println("  latency ms  " + latency);
            OUT.println("  http        " + byKind(byHttpStatus));
            OUT.println("  status      " + byKind(byBodyStatus));
            OUT.println("  errors      " + errors.sum() + " transport");
            for (String sample : samples) {
                OUT.println("  problem     " + sample);
            }
            OUT.printf(
                    Locale.ROOT,
                    "RESULT mixed flows_per_s=%.1f operations_per_s=%.1f%s errors=%d%n",
                    count / seconds,
                    answered / seconds,
                    result,
                    errors.sum());
        }

        private static String byKind(List<Map<String, LongAdder>> maps) {
            StringBuilder sb = new StringBuilder();
            for (Kind kind : Kind.values()) {
                sb.append(sb.isEmpty() ? "" : " | ")
                        .append(kind.label())
                        .append(' ')
                        .append(PaymentLoadDriver.counts(maps.get(kind.ordinal())));
            }
            return sb.toString();
        }
    }

    /**
     * The oracle's side: the simulator's succeeded authorizations against the 201 {@code authorized} answers, and per
     * charge its succeeded captures and refunds (count and amount) against the flow's 200 {@code captured} answer and
     * its refund's outcome.
     */
    private record MoneyCheck(Flows flows, PaymentLoadDriver.Admin admin, long amount) {

        boolean check(Map<String, Long> before, Map<String, Long> after, long settleNanos) throws Exception {
            long requests = after.getOrDefault("charge_requests", 0L) - before.getOrDefault("charge_requests", 0L);
            long authorized = flows.succeeded[Kind.AUTHORIZE.ordinal()].sum();
            LongAdder authorizations = new LongAdder();
            LongAdder captures = new LongAdder();
            LongAdder refunds = new LongAdder();
            LongAdder mismatched = new LongAdder();
            ConcurrentLinkedQueue<String> examples = new ConcurrentLinkedQueue<>();
            Thread[] checkers = new Thread[CHECKERS];
            for (int t = 0; t < CHECKERS; t++) {
                int first = t;
                checkers[t] = Thread.ofVirtual().start(() -> {
                    for (int i = first; i < flows.count; i += CHECKERS) {
                        String problem = flow(i, authorizations, captures, refunds);
                        if (problem != null) {
                            mismatched.increment();
                            if (examples.size() < 3) {
                                examples.add(problem);
                            }
                        }
                    }
                });
            }
            for (Thread checker : checkers) {
                checker.join();
            }
            long captured = flows.succeeded[Kind.CAPTURE.ordinal()].sum();
            long accepted = flows.succeeded[Kind.REFUND.ordinal()].sum();
            long refundSucceeded = flows.refunds("succeeded");
            long refundFailed = flows.refunds("failed");
            long pending = accepted - refundSucceeded - refundFailed;
            boolean ok = authorizations.sum() == authorized
                    && requests == authorized
                    && captures.sum() == captured
                    && refunds.sum() == refundSucceeded
                    && pending == 0
                    && mismatched.sum() == 0;
            OUT.printf(
                    Locale.ROOT,
                    "  simulator   authorizations %d (charge requests +%d) vs %d answers 201 authorized; captures %d vs"
                            + " %d answers 200"
                            + " captured; refunds %d vs %d of the %d answers 202 succeeded (%d failed, %d still pending"
                            + " after %.1f s of polling); %d flows whose movements differ from their answers: %s%n",
                    authorizations.sum(),
                    requests,
                    authorized,
                    captures.sum(),
                    captured,
                    refunds.sum(),
                    refundSucceeded,
                    accepted,
                    refundFailed,
                    pending,
                    settleNanos / 1e9,
                    mismatched.sum(),
                    ok ? "OK, exactly once each" : "MISMATCH");
            for (String example : examples) {
                OUT.println("              e.g. " + example);
            }
            OUT.println("RESULT mixed_check money_ok=" + ok);
            return ok;
        }

        /**
         * Counts flow i's authorization, captures and refunds at the simulator; a description when they differ from
         * its answers.
         */
        private String flow(int i, LongAdder authorizations, LongAdder captures, LongAdder refunds) {
            String charge = flows.charges[i];
            if (charge == null) {
                return null;
            }
            long[] moved; // {captures, captured amount, refunds, refunded amount, authorizations}
            try {
                moved = movements(admin.movements(charge));
            } catch (IOException e) {
                return charge + ": " + e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return charge + ": interrupted";
            }
            authorizations.add(moved[4]);
            captures.add(moved[0]);
            refunds.add(moved[2]);
            long wantCaptured = flows.captured[i] ? amount : 0;
            long wantRefunded = "succeeded".equals(flows.refundOutcomes[i]) ? flows.refundAmounts[i] : 0;
            boolean same = moved[4] == 1
                    && moved[0] == (flows.captured[i] ? 1 : 0)
                    && moved[1] == wantCaptured
                    && moved[2] == (wantRefunded > 0 ? 1 : 0)
                    && moved[3] == wantRefunded;
            return same
                    ? null
                    : String.format(
                            Locale.ROOT,
                            "%s: %d authorizations, %d captures of %d and %d refunds of %d moved; answers say"
                                    + " %d captured, %d refunded",
                            charge,
                            moved[4],
                            moved[0],
                            moved[1],
                            moved[2],
                            moved[3],
                            wantCaptured,
                            wantRefunded);
        }

        private static long[] movements(String json) {
            long[] moved = new long[5];
            Matcher m = MOVEMENT.matcher(json);
            while (m.find()) {
                if (!m.group(3).equals("succeeded")) {
                    continue;
                }
                int at = switch (m.group(1)) {
                    case "capture" -> 0;
                    case "refund" -> 2;
                    default -> -1;
                };
                if (m.group(1).equals("authorization")) {
                    moved[4]++;
                } else if (at >= 0) {
                    moved[at]++;
                    moved[at + 1] += Long.parseLong(m.group(2));
                }
            }
            return moved;
        }
    }

    /** The first {@code "name":"value"} of a JSON body (the top-level field: Kopek writes it before nested ones). */
    static String field(String body, String name) {
        Matcher m = FIELDS.computeIfAbsent(name, n -> Pattern.compile("\"" + n + "\"\\s*:\\s*\"([^\"]{0,128})\""))
                .matcher(body == null ? "" : body);
        return m.find() ? m.group(1) : null;
    }

    private record Options(
            URI url,
            String apiKey,
            URI simulatorUrl,
            int flows,
            int warmup,
            int concurrency,
            int refundPercent,
            long amount,
            String currency,
            String method,
            Duration timeout,
            Duration settleTimeout,
            String beforeMeasure,
            String afterMeasure) {

        static final String USAGE = """
                usage: java -jar benchmarks.jar mixed --api-key KEY --simulator-url URL [flags]
                  --url URL              Kopek base URL (default http://127.0.0.1:8080)
                  --api-key KEY          merchant API key (or env KOPEK_API_KEY)
                  --simulator-url URL    acquirer simulator base URL (the money-movement check), required
                  --flows N              measured flows: authorize, capture, maybe refund (default 5000)
                  --warmup W             flows before the measured run, not counted (default 1000)
                  --concurrency C        flows in flight (default 64)
                  --refund-percent P     share of captured payments refunded, 0..100 (default 50)
                  --amount MINOR         amount in minor units (default 1000)
                  --currency CUR         (default EUR)
                  --method PM            payment_method (default pm_ok)
                  --timeout-s S          per-request timeout (default 60)
                  --settle-timeout-s S   how long to poll pending refunds after the loop (default 120)
                  --before-measure CMD   shell command run after the warmup, right before the measured run
                  --after-measure CMD    shell command run once the measured refunds have settled
                """;

        static Options parse(String[] args) {
            Map<String, String> m = PaymentLoadDriver.Options.flags(
                    args,
                    List.of(
                            "url",
                            "api-key",
                            "simulator-url",
                            "flows",
                            "warmup",
                            "concurrency",
                            "refund-percent",
                            "amount",
                            "currency",
                            "method",
                            "timeout-s",
                            "settle-timeout-s",
                            "before-measure",
                            "after-measure"));
            if (m == null) {
                return null;
            }
            String apiKey = m.getOrDefault("api-key", System.getenv("KOPEK_API_KEY"));
            if (apiKey == null || apiKey.isBlank()) {
                throw new IllegalArgumentException("--api-key is required");
            }
            if (!m.containsKey("simulator-url")) {
                throw new IllegalArgumentException("--simulator-url is required (the money-movement check)");
            }
            long percent = PaymentLoadDriver.Options.nonNegative(m, "refund-percent", 50);
            if (percent > 100) {
                throw new IllegalArgumentException("--refund-percent must be 0..100");
            }
            return new Options(
                    URI.create(m.getOrDefault("url", "http://127.0.0.1:8080")),
                    apiKey,
                    URI.create(m.get("simulator-url")),
                    PaymentLoadDriver.Options.positive(m, "flows", 5000),
                    (int) PaymentLoadDriver.Options.nonNegative(m, "warmup", 1000),
                    PaymentLoadDriver.Options.positive(m, "concurrency", 64),
                    (int) percent,
                    PaymentLoadDriver.Options.positive(m, "amount", 1000),
                    m.getOrDefault("currency", "EUR"),
                    m.getOrDefault("method", "pm_ok"),
                    Duration.ofSeconds(PaymentLoadDriver.Options.positive(m, "timeout-s", 60)),
                    Duration.ofSeconds(PaymentLoadDriver.Options.positive(m, "settle-timeout-s", 120)),
                    m.get("before-measure"),
                    m.get("after-measure"));
        }
    }
}
