package dev.kopek.chaos;

import dev.kopek.chaos.Evidence.PspMovement;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/** One relay mode: start the fleet, drive load with faults and kills, stop the faults, drain, audit, print. */
final class ChaosRun {

    /** What the whole run adds up. */
    record Result(String mode, long operations, long kills, long violations) {}

    private static final double FAIL_BEFORE = 0.03;
    private static final double FAIL_AFTER = 0.03;
    private static final double TIMEOUT_AFTER = 0.03;

    private final Size size;
    private final String mode;
    private final String topic;
    private final Database db;
    private final Simulator simulator;
    private final String kafka;
    private final Path kopekJar;
    private final Path workDir;
    private final Figures figures = new Figures();
    private final ClientLog log = new ClientLog();

    ChaosRun(
            Size size,
            String mode,
            String topic,
            Database db,
            Simulator simulator,
            String kafka,
            Path kopekJar,
            Path workDir) {
        this.size = size;
        this.mode = mode;
        this.topic = topic;
        this.db = db;
        this.simulator = simulator;
        this.kafka = kafka;
        this.kopekJar = kopekJar;
        this.workDir = workDir.resolve(mode);
    }

    Result run() {
        try {
            Files.createDirectories(workDir);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        String url = db.create("kopek_" + mode);
        KopekRecord kopek = new KopekRecord(url);
        long t0 = System.nanoTime();
        try (Fleet fleet = new Fleet(3, kopekJar, workDir, url, simulator.base(), kafka, mode, topic, Map.of());
                Balancer balancer = new Balancer(
                        fleet.instances().stream().map(Fleet.Instance::base).toList(), figures)) {
            simulator.faultsOn(
                    balancer.webhookUri("/v1/psp/simulator/webhooks"), FAIL_BEFORE, FAIL_AFTER, TIMEOUT_AFTER);
            fleet.start();
            say("3 instances ready in " + secondsSince(t0) + " s; load for at most "
                    + size.load().toSeconds() + " s"
                    + (size.operations() > 0 ? " or " + size.operations() + " operations" : ""));
            try (EventTap tap = new EventTap(kafka, topic)) {
                balancer.faults(size.balancerFaults());
                load(fleet, balancer);
                balancer.faults(Balancer.Faults.NONE);
                simulator.faultsOff();
                fleet.ensureAllReady();
                Aftermath.drain(simulator, kopek, tap, size.drain(), this::say);
                Evidence evidence = Aftermath.evidence(simulator, kopek, tap, log);
                Auditor.Report report = Auditor.audit(evidence);
                print(report, evidence, kopek, fleet);
                long production = productionAudit(fleet);
                return new Result(mode, figures.get("operations"), figures.get("kills"), report.total() + production);
            }
        }
    }

    private void load(Fleet fleet, Balancer balancer) {
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(1))
                .build();
        Merchant merchant = new Merchant(
                new Api(http, balancer.uri(), figures, log, 12),
                simulator,
                figures,
                mode + "-" + Long.toString(System.currentTimeMillis(), 36));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong orders = new AtomicLong();
        long deadline = System.nanoTime() + size.load().toNanos();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < size.workers(); w++) {
            workers.add(Thread.ofVirtual().start(() -> {
                while (!stop.get()
                        && System.nanoTime() < deadline
                        && (size.operations() == 0 || figures.get("operations") < size.operations())) {
                    merchant.order(orders.incrementAndGet());
                }
            }));
        }
        Thread killer = Thread.ofPlatform().name("killer").start(() -> kill(fleet, stop));
        Thread progress = Thread.ofPlatform().daemon().name("progress").start(() -> {
            while (!stop.get()) {
                Pause.millis(15_000);
                if (!stop.get()) {
                    say("load: operations " + figures.get("operations") + ", requests " + figures.get("requests")
                            + ", kills " + figures.get("kills"));
                }
            }
        });
        workers.forEach(ChaosRun::join);
        stop.set(true);
        join(killer);
        progress.interrupt();
        say("load done: " + figures.get("operations") + " operations, " + figures.get("kills") + " kills");
    }

    /** kill -9 of a random live instance every few seconds (jittered), restarted at once. */
    private void kill(Fleet fleet, AtomicBoolean stop) {
        long mean = size.killEvery().toMillis();
        Pause.millis(mean);
        while (!stop.get()) {
            Fleet.Instance victim = fleet.killOne();
            if (victim != null) {
                figures.add("kills");
            }
            long pause = mean / 2 + ThreadLocalRandom.current().nextLong(mean);
            for (long slept = 0; slept < pause && !stop.get(); slept += 100) {
                Pause.millis(100);
            }
        }
    }

    private void print(Auditor.Report report, Evidence evidence, KopekRecord kopek, Fleet fleet) {
        JsonNode stats = simulator.stats();
        long chargeRequests = stats.path("charge_requests").asLong();
        Map<String, Long> byType = evidence.pspMovements().stream()
                .filter(PspMovement::succeeded)
                .collect(Collectors.groupingBy(PspMovement::type, java.util.TreeMap::new, Collectors.counting()));
        say("operations " + figures.get("operations") + " " + figures.withPrefix("operations_") + ", requests "
                + figures.get("requests") + ", retries " + figures.get("retries") + ", double submissions "
                + figures.get("double_submissions") + ", concurrent refund groups "
                + figures.get("concurrent_refund_groups"));
        say("answers " + figures.withPrefix("http_") + ", client timeouts " + figures.get("client_timeouts")
                + ", client resets " + figures.get("client_resets"));
        long followUps = simulator.stats("capture").path("requests").asLong()
                + simulator.stats("void").path("requests").asLong()
                + simulator.stats("refund").path("requests").asLong();
        long random = Math.round(chargeRequests * (FAIL_BEFORE + FAIL_AFTER + TIMEOUT_AFTER));
        long tokens = figures.withPrefix("fault_psp_token_").entrySet().stream()
                .filter(t -> !t.getKey().contains("declined"))
                .mapToLong(Map.Entry::getValue)
                .sum();
        long armed = figures.withPrefix("fault_psp_armed_").values().stream()
                .mapToLong(Long::longValue)
                .sum();
        long pspCalls = chargeRequests + followUps;
        say("faults: balancer " + figures.withPrefix("lb_fault_") + "; PSP tokens "
                + figures.withPrefix("fault_psp_token_") + "; PSP armed " + figures.withPrefix("fault_psp_armed_")
                + "; PSP random on " + chargeRequests + " charge requests at fail-before " + FAIL_BEFORE
                + ", fail-after " + FAIL_AFTER + ", timeout-after " + TIMEOUT_AFTER + " (≈" + random + ")");
        say("PSP calls " + pspCalls + " (charges " + chargeRequests + ", captures/voids/refunds " + followUps
                + "), faulted at least " + (random + tokens + armed) + " ≈ "
                + (pspCalls == 0 ? 0 : Math.round(100.0 * (random + tokens + armed) / pspCalls)) + "%");
        say("kills " + figures.get("kills") + ", balancer found an instance down " + figures.get("lb_connect_refused")
                + " times, lost one mid-request " + figures.get("lb_backend_failed") + " times");
        say("PSP movements succeeded " + byType + "; payments "
                + evidence.payments().size() + ", operations "
                + evidence.operations().size() + ", disputes "
                + evidence.disputes().size());
        say("recovered attempts " + kopek.recoveredAttempts() + ", review items open " + report.openReviews()
                + " (all " + evidence.reviews().size() + "), events on topic "
                + evidence.topic().size()
                + " (duplicates " + report.duplicateEvents() + "), outbox rows "
                + evidence.outbox().size());
        kopek.openReviewSummary().forEach(line -> say("    open review: " + line));
        for (Fleet.Instance i : fleet.instances()) {
            say(i.process().name() + " log: " + errorLines(i.process().log()) + " ERROR lines");
        }
        for (String check : Auditor.CHECKS) {
            say("check " + check + " = " + report.count(check));
            report.examples(check).forEach(example -> say("    e.g. " + example));
        }
        say("violations=" + report.total());
    }

    /** Kopek's own audit must agree: 0 violations after a whole pass over what the run wrote. */
    private long productionAudit(Fleet fleet) {
        return ProductionAudit.report(fleet.instances().getFirst().base(), Fleet.ADMIN_TOKEN, size.drain(), this::say);
    }

    private static long errorLines(Path log) {
        try (var lines = Files.lines(log)) {
            return lines.filter(l -> l.contains(" ERROR ")).count();
        } catch (IOException | java.io.UncheckedIOException e) {
            return -1;
        }
    }

    private void say(String line) {
        System.out.println("chaos [" + mode + "] " + line);
    }

    private static long secondsSince(long t0) {
        return (System.nanoTime() - t0) / 1_000_000_000L;
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
