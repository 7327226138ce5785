package dev.kopek.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * {@code ha/run [--size ci|long]}: Kopek beyond one machine. etcd, three PostgreSQL 15 nodes under Patroni with
 * strict synchronous replication, three KRaft brokers, the simulator with its faults, Kopek instances naming
 * every node and every broker; merchants retry through a balancer while the primary is crashed, switched over and
 * frozen, a broker and an instance killed. Prints the audit; the last line is machine-readable. Exits 1 on any
 * violation, 2 when the cluster could not be set up or a tool is missing.
 */
public final class HaMain {

    private static final String INSTALL = "apt-get install patroni etcd-server postgresql-15";

    private HaMain() {}

    public static void main(String[] args) throws IOException {
        String size = "ci";
        Path kopekJar = Path.of("kopek-server/target/kopek-server-0.1.0-SNAPSHOT.jar");
        Path simulatorJar = Path.of("acquirer-simulator/target/acquirer-simulator-0.1.0-SNAPSHOT-exec.jar");
        Path selfJar = Path.of("chaos/target/chaos-0.1.0-SNAPSHOT.jar");
        Path pgBin = Path.of("/usr/lib/postgresql/15/bin");
        Path work = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--size" -> size = args[++i];
                case "--kopek-jar" -> kopekJar = Path.of(args[++i]);
                case "--simulator-jar" -> simulatorJar = Path.of(args[++i]);
                case "--self-jar" -> selfJar = Path.of(args[++i]);
                case "--pg-bin" -> pgBin = Path.of(args[++i]);
                case "--work-dir" -> work = Path.of(args[++i]);
                default -> {
                    System.err.println("usage: ha [--size ci|long] [--kopek-jar J] [--simulator-jar J] "
                            + "[--self-jar J] [--pg-bin DIR] [--work-dir D]");
                    System.exit(2);
                }
            }
        }
        HaSize chosen;
        try {
            chosen = HaSize.of(size);
        } catch (IllegalArgumentException e) {
            System.err.println("ha: " + e.getMessage());
            System.exit(2);
            return;
        }
        List<String> missing = missing(List.of(kopekJar, simulatorJar, selfJar), pgBin);
        if (!missing.isEmpty()) {
            missing.forEach(m -> System.err.println("ha: missing " + m));
            System.exit(2);
        }
        Path workDir = work != null ? Files.createDirectories(work) : Files.createTempDirectory("kopek-ha-");
        System.exit(run(
                chosen,
                kopekJar.toAbsolutePath(),
                simulatorJar.toAbsolutePath(),
                selfJar.toAbsolutePath(),
                pgBin,
                workDir.toAbsolutePath()));
    }

    /** What the run needs from the machine and the build, each with how to get it. */
    static List<String> missing(List<Path> jars, Path pgBin) {
        List<String> missing = new ArrayList<>();
        for (Path jar : jars) {
            if (!Files.isRegularFile(jar)) {
                missing.add(jar + " (build first: ha/run does)");
            }
        }
        for (String tool : List.of("patroni", "patronictl", "etcd")) {
            if (!Commands.onPath(tool)) {
                missing.add(tool + " on the PATH (" + INSTALL + ")");
            }
        }
        for (String tool : List.of("postgres", "initdb", "pg_basebackup", "pg_rewind", "pg_ctl")) {
            if (!Files.isExecutable(pgBin.resolve(tool))) {
                missing.add(pgBin.resolve(tool) + " (" + INSTALL + ")");
            }
        }
        if ("root".equals(System.getProperty("user.name")) && !Commands.onPath("setpriv")) {
            missing.add("setpriv, to run Patroni as the postgres user (apt-get install util-linux)");
        }
        return missing;
    }

    private static int run(HaSize size, Path kopekJar, Path simulatorJar, Path selfJar, Path pgBin, Path workDir) {
        long started = System.nanoTime();
        say("size " + size.name() + ", work dir " + workDir + " (every process's log there)");
        try (EtcdCluster etcd = new EtcdCluster(workDir);
                PatroniCluster db = startDatabase(etcd, workDir, pgBin);
                KafkaCluster kafka = new KafkaCluster(workDir, selfJar);
                Simulator simulator = new Simulator(simulatorJar, workDir)) {
            // Own threads, not the common pool's: they inherit the jar's class loader, where Kafka finds its classes.
            Executor thread = task -> Thread.ofPlatform().start(task);
            CompletableFuture<Void> brokers = CompletableFuture.runAsync(kafka::start, thread);
            CompletableFuture<Void> psp = CompletableFuture.runAsync(simulator::start, thread);
            long t0 = System.nanoTime();
            db.start();
            say("Patroni cluster healthy in " + (System.nanoTime() - t0) / 1_000_000 + " ms: " + db.members());
            db.execute("postgres", "CREATE DATABASE " + HaFaults.DATABASE);
            db.execute(
                    HaFaults.DATABASE,
                    "CREATE SCHEMA ha",
                    "CREATE TABLE " + HaFaults.PROBE_TABLE + " (id bigserial PRIMARY KEY, note text NOT NULL)");
            brokers.join();
            psp.join();
            // Kopek creates its topic (HaRun passes the replication it must give it); the audit reads it back.
            say("Kafka " + kafka.bootstrapServers() + " ready after " + (System.nanoTime() - started) / 1_000_000_000L
                    + " s; Kopek creates topic " + HaRun.TOPIC);
            String url = db.url(HaFaults.DATABASE, "connectTimeout=2&loginTimeout=5&hostRecheckSeconds=2");
            say("Kopek's JDBC URL " + url);
            HaRun.Result result = new HaRun(size, db, kafka, simulator, kopekJar, workDir, url).run();
            say("seconds " + (System.nanoTime() - started) / 1_000_000_000L);
            System.out.println(result.line());
            return result.violations() == 0 ? 0 : 1;
        } catch (RuntimeException e) {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            System.out.println("ha: the run could not be carried out: " + cause);
            cause.printStackTrace(System.out);
            return 2;
        }
    }

    private static PatroniCluster startDatabase(EtcdCluster etcd, Path workDir, Path pgBin) {
        etcd.start();
        return new PatroniCluster(workDir, etcd, pgBin);
    }

    private static void say(String line) {
        System.out.println("ha " + line);
    }
}
