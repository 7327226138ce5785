package dev.kopek.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * {@code chaos/run [--size ci|long] [--modes polling,cdc]}: one PostgreSQL cluster, one embedded KRaft broker,
 * the simulator as its own process, and per relay mode three Kopek JVMs behind a faulty balancer, killed with
 * kill -9 while merchants retry; then the audit. Exits 1 on any violation, 2 on a broken set-up.
 */
public final class ChaosMain {

    static final String[] MODES = {"polling", "cdc"};

    private ChaosMain() {}

    public static void main(String[] args) throws IOException {
        String size = "ci";
        String modes = String.join(",", MODES);
        Path kopekJar = Path.of("kopek-server/target/kopek-server-0.1.0-SNAPSHOT.jar");
        Path simulatorJar = Path.of("acquirer-simulator/target/acquirer-simulator-0.1.0-SNAPSHOT-exec.jar");
        Path work = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--size" -> size = args[++i];
                case "--modes" -> modes = args[++i];
                case "--kopek-jar" -> kopekJar = Path.of(args[++i]);
                case "--simulator-jar" -> simulatorJar = Path.of(args[++i]);
                case "--work-dir" -> work = Path.of(args[++i]);
                default -> {
                    System.err.println("usage: chaos [--size ci|long] [--modes polling,cdc] [--kopek-jar J] "
                            + "[--simulator-jar J] [--work-dir D]");
                    System.exit(2);
                }
            }
        }
        for (Path jar : List.of(kopekJar, simulatorJar)) {
            if (!Files.isRegularFile(jar)) {
                System.err.println("chaos: " + jar + " is missing; build first (chaos/run does)");
                System.exit(2);
            }
        }
        Path workDir = work != null ? Files.createDirectories(work) : Files.createTempDirectory("kopek-chaos-");
        System.exit(run(
                Size.of(size), modes.split(","), kopekJar.toAbsolutePath(), simulatorJar.toAbsolutePath(), workDir));
    }

    private static int run(Size size, String[] modes, Path kopekJar, Path simulatorJar, Path workDir) {
        long started = System.nanoTime();
        System.out.println("chaos: size " + size.name() + ", modes " + String.join(",", modes) + ", work dir " + workDir
                + " (instance logs there)");
        List<String> topics = new ArrayList<>();
        for (String mode : modes) {
            topics.add(topic(mode));
        }
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 6, topics.toArray(String[]::new));
        broker.afterPropertiesSet();
        List<ChaosRun.Result> results = new ArrayList<>();
        try (Database db = Database.start(workDir.resolve("pgdata"));
                Simulator simulator = new Simulator(simulatorJar, workDir)) {
            System.out.println("chaos: PostgreSQL fsync=" + db.show("fsync") + " synchronous_commit="
                    + db.show("synchronous_commit") + " wal_level=" + db.show("wal_level") + "; Kafka "
                    + broker.getBrokersAsString());
            simulator.start();
            for (String mode : modes) {
                simulator.reset();
                ChaosRun chaos = new ChaosRun(
                        size.perMode(modes.length),
                        mode,
                        topic(mode),
                        db,
                        simulator,
                        broker.getBrokersAsString(),
                        kopekJar,
                        workDir);
                results.add(chaos.run());
            }
        } catch (RuntimeException e) {
            System.out.println("chaos: the run could not be carried out: " + e);
            e.printStackTrace(System.out);
            return 2;
        } finally {
            broker.destroy();
        }
        long operations =
                results.stream().mapToLong(ChaosRun.Result::operations).sum();
        long kills = results.stream().mapToLong(ChaosRun.Result::kills).sum();
        long violations =
                results.stream().mapToLong(ChaosRun.Result::violations).sum();
        long seconds = (System.nanoTime() - started) / 1_000_000_000L;
        System.out.println("chaos: size=" + size.name() + " modes=" + String.join(",", modes) + " operations="
                + operations + " kills=" + kills + " seconds=" + seconds + " violations=" + violations);
        return violations == 0 ? 0 : 1;
    }

    static String topic(String mode) {
        return "kopek.events." + mode;
    }
}
