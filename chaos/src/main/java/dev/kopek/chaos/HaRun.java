package dev.kopek.chaos;

import dev.kopek.chaos.HaAudit.Fault;
import dev.kopek.chaos.HaAudit.Gap;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The HA run's load and audit: Kopek instances on the Patroni cluster and the three brokers, merchants retrying
 * through the balancer while {@link HaFaults} crash, switch over and freeze the primary and kill a broker and an
 * instance; then the faults stop, Kopek drains, and the {@link Auditor} and {@link HaAudit} judge the evidence, and
 * Kopek's own production audit ({@link ProductionAudit}), which read the standbys through every fault, must report 0.
 */
final class HaRun {

    /** What the last line reports. */
    record Result(String line, long violations) {}

    static final String TOPIC = "kopek.payments";
    private static final double FAIL_BEFORE = 0.03;
    private static final double FAIL_AFTER = 0.03;
    private static final double TIMEOUT_AFTER = 0.03;
    /** Tries per operation: with the client's back-off, about 45 s, longer than a failover. */
    private static final int MAX_ATTEMPTS = 30;

    private final HaSize size;
    private final PatroniCluster db;
    private final KafkaCluster kafka;
    /** Longer than any failover's write gap (at most about 15 s), as a real PSP's retries are. */
    private static final Duration WEBHOOK_RETRY_WINDOW = Duration.ofSeconds(60);
    /**
     * The production audit's pause between ticks: short, so that its slices read the standbys all through the faults
     * and its two closing passes fit in the drain.
     */
    private static final String AUDIT_INTERVAL = "2s";

    private final Simulator simulator;
    private final Path kopekJar;
    private final Path workDir;
    private final String dbUrl;
    private final String readUrl;
    private final Figures figures = new Figures();
    private final ClientLog log = new ClientLog();

    HaRun(
            HaSize size,
            PatroniCluster db,
            KafkaCluster kafka,
            Simulator simulator,
            Path kopekJar,
            Path workDir,
            String dbUrl,
            String readUrl) {
        this.size = size;
        this.db = db;
        this.kafka = kafka;
        this.simulator = simulator;
        this.kopekJar = kopekJar;
        this.workDir = workDir;
        this.dbUrl = dbUrl;
        this.readUrl = readUrl;
    }

    Result run() {
        KopekRecord kopek = new KopekRecord(dbUrl);
        long t0 = System.nanoTime();
        HaFaults faults = new HaFaults(db, kafka, TOPIC, figures, this::say);
        try (Fleet fleet = new Fleet(
                        size.instances(),
                        kopekJar,
                        workDir,
                        dbUrl,
                        simulator.base(),
                        kafka.bootstrapServers(),
                        "polling",
                        TOPIC,
                        Map.of(
                                "KOPEK_KAFKA_TOPIC_REPLICATION_FACTOR",
                                Integer.toString(HaAudit.TOPIC_REPLICATION_FACTOR),
                                "KOPEK_KAFKA_TOPIC_MIN_INSYNC_REPLICAS",
                                Integer.toString(HaAudit.TOPIC_MIN_INSYNC_REPLICAS),
                                "KOPEK_DB_READ_URL",
                                readUrl,
                                "KOPEK_INVARIANTS_INTERVAL",
                                AUDIT_INTERVAL));
                Balancer balancer = new Balancer(
                        fleet.instances().stream().map(Fleet.Instance::base).toList(), figures)) {
            simulator.faultsOn(
                    balancer.webhookUri("/v1/psp/simulator/webhooks"), FAIL_BEFORE, FAIL_AFTER, TIMEOUT_AFTER);
            simulator.retryWebhooksFor(WEBHOOK_RETRY_WINDOW);
            fleet.start();
            say(size.instances() + " Kopek instances ready in " + (System.nanoTime() - t0) / 1_000_000_000L
                    + " s; faults " + size.faults());
            KafkaCluster.TopicSettings created = kafka.topic(TOPIC);
            say("topic " + TOPIC + " as Kopek created it: " + created.partitions() + " partitions, replication factor "
                    + created.replicationFactor() + ", min.insync.replicas " + created.minInsyncReplicas());
            List<String> topicProblems = HaAudit.topicReplication(created, KafkaCluster.PARTITIONS);
            try (EventTap tap = new EventTap(kafka.bootstrapServers(), TOPIC)) {
                balancer.faults(size.balancerFaults());
                List<Fault> done = load(fleet, balancer, faults);
                balancer.faults(Balancer.Faults.NONE);
                simulator.faultsOff();
                List<String> died = fleet.instances().stream()
                        .filter(i -> !i.process().alive())
                        .map(i -> i.process().name() + " was down at the end of the load without being killed")
                        .toList();
                fleet.ensureAllReady();
                Aftermath.drain(simulator, kopek, tap, size.drain(), this::say);
                Evidence evidence = Aftermath.evidence(simulator, kopek, tap, log);
                return judge(evidence, done, faults, died, topicProblems, productionAudit(fleet));
            }
        }
    }

    /** Merchants run until the last fault recovered and one more settling period passed. */
    private List<Fault> load(Fleet fleet, Balancer balancer, HaFaults faults) {
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(1))
                .build();
        Merchant merchant = new Merchant(
                new Api(http, balancer.uri(), figures, log, MAX_ATTEMPTS),
                simulator,
                figures,
                "ha-" + Long.toString(System.currentTimeMillis(), 36));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong orders = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < size.workers(); w++) {
            workers.add(Thread.ofVirtual().start(() -> {
                while (!stop.get()) {
                    merchant.order(orders.incrementAndGet());
                }
            }));
        }
        List<Fault> done = new ArrayList<>();
        try {
            Pause.millis(size.warmup().toMillis());
            for (String kind : size.faults()) {
                say("load: operations " + figures.get("operations") + ", acknowledged "
                        + HaAudit.acknowledged(log.acks()) + "; now " + kind);
                done.add(faults.run(kind, fleet));
                Pause.millis(size.settle().toMillis());
            }
        } finally {
            stop.set(true);
            workers.forEach(HaRun::join);
        }
        say("load done: " + figures.get("operations") + " operations, " + done.size() + " faults");
        return done;
    }

    /** Kopek's own audit, read from the standbys, must agree: 0 violations after a whole pass over the run. */
    private long productionAudit(Fleet fleet) {
        return ProductionAudit.report(fleet.instances().getFirst().base(), Fleet.ADMIN_TOKEN, size.drain(), this::say);
    }

    private Result judge(
            Evidence evidence,
            List<Fault> done,
            HaFaults faults,
            List<String> died,
            List<String> topicProblems,
            long production) {
        Auditor.Report report = Auditor.audit(evidence);
        List<ClientLog.Ack> acks = log.acks();
        List<String> lost = HaAudit.lost(acks, evidence.payments(), evidence.operations(), evidence.topic());
        List<Gap> gaps = HaAudit.gaps(acks, done);
        say("operations " + figures.get("operations") + " " + figures.withPrefix("operations_") + ", requests "
                + figures.get("requests") + ", retries " + figures.get("retries") + ", double submissions "
                + figures.get("double_submissions") + ", unfinished by the client "
                + figures.get("operations_unfinished_by_client"));
        say("answers " + figures.withPrefix("http_") + ", client timeouts " + figures.get("client_timeouts")
                + ", client resets " + figures.get("client_resets") + "; 5xx: 503 database_unavailable with "
                + "Retry-After " + figures.get("http5xx_database_unavailable") + ", balancer 502 (instance killed "
                + "under a request) " + figures.get("http5xx_balancer") + ", server errors "
                + figures.get("server_errors"));
        log.serverErrors().forEach(e -> say("    server error: " + e));
        say("balancer faults " + figures.withPrefix("lb_fault_") + "; events on topic "
                + evidence.topic().size()
                + " (duplicates " + report.duplicateEvents() + "), outbox rows "
                + evidence.outbox().size()
                + ", review items open " + report.openReviews());
        List<Long> dbGaps = new ArrayList<>();
        for (Gap g : gaps) {
            if (g.fault().database()) {
                dbGaps.add(g.gapMillis());
            }
            say(String.format(
                    Locale.ROOT,
                    "fault %-11s write gap %6d ms; payments/s before %.1f, during %.1f, after %.1f; %s",
                    g.fault().kind(),
                    g.gapMillis(),
                    g.before(),
                    g.during(),
                    g.after(),
                    g.fault().detail()));
        }
        faults.probes().forEach(p -> say("freeze probe " + p));
        for (String check : Auditor.CHECKS) {
            say("check " + check + " = " + report.count(check));
            report.examples(check).forEach(example -> say("    e.g. " + example));
        }
        say("check acknowledged_writes_lost = " + lost.size());
        lost.stream().limit(5).forEach(example -> say("    e.g. " + example));
        List<String> other = new ArrayList<>(faults.violations());
        other.addAll(died);
        say("check fault_violations = " + other.size());
        other.forEach(example -> say("    e.g. " + example));
        say("check topic_replication = " + topicProblems.size());
        topicProblems.forEach(example -> say("    e.g. " + example));
        long serverErrors = figures.get("server_errors");
        long violations =
                report.total() + lost.size() + serverErrors + other.size() + topicProblems.size() + production;
        String line = "ha: size=" + size.name() + " failovers=" + count(done, HaAudit.FAILOVER) + " switchovers="
                + count(done, HaAudit.SWITCHOVER) + " freezes=" + count(done, HaAudit.FREEZE) + " broker_kills="
                + count(done, HaAudit.BROKER_KILL) + " kopek_kills=" + count(done, HaAudit.KOPEK_KILL)
                + " etcd_kills=" + count(done, HaAudit.ETCD_KILL)
                + " acknowledged=" + HaAudit.acknowledged(acks) + " lost=" + lost.size() + " double="
                + report.count(Auditor.DOUBLE_CHARGES) + " orphan=" + report.count(Auditor.UNKNOWN_PSP_MOVEMENTS)
                + " missing_events=" + report.count(Auditor.EVENTS_MISSING) + " production_audit=" + production
                + " server_errors=" + serverErrors
                + " gap_p50_ms=" + HaAudit.percentile(dbGaps, 50) + " gap_max_ms=" + HaAudit.percentile(dbGaps, 100)
                + " violations=" + violations;
        return new Result(line, violations);
    }

    private static long count(List<Fault> done, String kind) {
        return done.stream().filter(f -> f.kind().equals(kind)).count();
    }

    private void say(String line) {
        System.out.println("ha " + line);
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
