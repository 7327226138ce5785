package dev.kopek.chaos;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Three Kopek JVMs on one database, each {@code -Xmx} bounded, with short leases and grace so that recovery of
 * what a kill -9 interrupted happens within the run. Each keeps its port across restarts.
 */
final class Fleet implements AutoCloseable {

    static final String API_KEY = "sk_test_chaos_0123456789abcdef";
    static final String ADMIN_TOKEN = "chaos-admin-token-0123456789";
    static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final String READINESS = "/actuator/health/readiness";

    /** One instance: its port and its process. */
    record Instance(int index, int port, ChildProcess process) {
        URI base() {
            return URI.create("http://127.0.0.1:" + port);
        }
    }

    private final List<Instance> instances = new ArrayList<>();

    Fleet(
            int size,
            Path kopekJar,
            Path workDir,
            String dbUrl,
            URI simulator,
            String kafka,
            String outboxMode,
            String topic) {
        for (int i = 0; i < size; i++) {
            int port = Ports.free();
            Map<String, String> env = new HashMap<>();
            env.put("KOPEK_HTTP_PORT", Integer.toString(port));
            env.put("KOPEK_DATA_DIR", workDir.resolve("kopek-" + i).toString());
            env.put("KOPEK_DB_URL", dbUrl);
            env.put("KOPEK_DB_USER", "postgres");
            env.put("KOPEK_DB_PASSWORD", "");
            env.put("KOPEK_DB_POOL_SIZE", "8");
            env.put("KOPEK_PSP_SIMULATOR_URL", simulator.toString());
            env.put("KOPEK_ADMIN_TOKEN", ADMIN_TOKEN);
            env.put("KOPEK_DEMO_API_KEY", API_KEY);
            // Instances sharing one database need the same key for sealed secrets (base64 of 32 bytes).
            env.put("KOPEK_SECRETS_KEY", "Y2hhb3MtcnVuLXNlY3JldHMta2V5LTMyLWJ5dGVzISE=");
            env.put("KOPEK_KAFKA_BOOTSTRAP_SERVERS", kafka);
            env.put("KOPEK_KAFKA_TOPIC", topic);
            env.put("KOPEK_OUTBOX_MODE", outboxMode);
            env.put("KOPEK_SETTLEMENT_ENABLED", "false");
            // The run's one merchant sends more than the default 50 writes/s; a 429 would still be retried.
            env.put("KOPEK_RATE_LIMIT_WRITES_PER_SECOND", "1000");
            env.put("KOPEK_RATE_LIMIT_WRITES_BURST", "2000");
            env.put("KOPEK_RATE_LIMIT_READS_PER_SECOND", "2000");
            env.put("KOPEK_RATE_LIMIT_READS_BURST", "4000");
            List<String> jvm = List.of(
                    "-Xmx320m",
                    "-Xss512k",
                    "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1",
                    "-XX:ActiveProcessorCount=2",
                    "-Dspring.main.banner-mode=off");
            // Lease longer than the PSP budget (the owner never outlives it), both short enough that a killed
            // owner's key is taken over, and an unknown outcome asked about, within seconds.
            List<String> args = List.of(
                    "--kopek.idempotency.lease=6s",
                    "--kopek.idempotency.grace=2s",
                    "--kopek.reconciler.interval=1s",
                    // Kopek's own audit finishes its passes within the drain, for ProductionAudit to read; a killed
                    // instance's hold on a check lapses within seconds.
                    "--kopek.invariants.interval=1s",
                    "--kopek.invariants.lease=10s",
                    "--kopek.psp.connect-timeout=300ms",
                    "--kopek.psp.read-timeout=1500ms",
                    "--kopek.psp.budget=3500ms",
                    "--logging.level.dev.kopek=WARN");
            ChildProcess process =
                    new ChildProcess("kopek-" + i, jvm, kopekJar, args, env, workDir.resolve("kopek-" + i + ".log"));
            instances.add(new Instance(i, port, process));
        }
    }

    List<Instance> instances() {
        return instances;
    }

    /** The first instance alone (it migrates the schema and creates the merchant), then the others together. */
    void start() {
        Instance first = instances.getFirst();
        first.process().start();
        awaitReady(first);
        instances.stream().skip(1).forEach(i -> i.process().start());
        instances.stream().skip(1).forEach(this::awaitReady);
    }

    void awaitReady(Instance instance) {
        if (!instance.process().awaitHttpOk(instance.base().resolve(READINESS), START_TIMEOUT)) {
            throw new IllegalStateException(instance.process().name() + " did not become ready; see "
                    + instance.process().log());
        }
    }

    boolean ready(Instance instance) {
        return instance.process().alive()
                && instance.process().answersOk(instance.base().resolve(READINESS));
    }

    /**
     * kill -9 of one random running instance (it may still be starting: a crash during start-up is a crash too),
     * then an immediate restart; only while another instance is ready, so the service stays up.
     */
    Instance killOne() {
        List<Instance> running =
                instances.stream().filter(i -> i.process().alive()).toList();
        if (running.isEmpty()) {
            return null;
        }
        Instance victim = running.get(ThreadLocalRandom.current().nextInt(running.size()));
        if (instances.stream().filter(i -> i != victim).noneMatch(this::ready)) {
            return null;
        }
        victim.process().kill();
        victim.process().start();
        return victim;
    }

    /** Restarts any instance that is not running (a kill whose restart failed) and waits for all of them. */
    void ensureAllReady() {
        for (Instance i : instances) {
            if (!i.process().alive()) {
                i.process().start();
            }
        }
        instances.forEach(this::awaitReady);
    }

    @Override
    public void close() {
        instances.forEach(i -> i.process().stop());
    }
}
