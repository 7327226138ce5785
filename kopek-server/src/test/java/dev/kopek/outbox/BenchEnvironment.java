package dev.kopek.outbox;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Not a test: what benchmarks/run-outbox-lag.sh starts for a Kopek under measurement, from the test classpath —
 * a PostgreSQL with logical WAL (so CDC can run) and production-like durability (fsync and synchronous commit
 * on: a walsender only streams flushed WAL, so the test database's synchronous_commit=off would add up to
 * wal_writer_delay to the CDC lag), and an embedded KRaft broker, both on random loopback ports. Writes
 * {@code KOPEK_DB_URL=…} and {@code KOPEK_KAFKA_BOOTSTRAP_SERVERS=…} to the file named by the first argument,
 * then runs until its standard input closes or it is killed.
 */
public final class BenchEnvironment {

    private BenchEnvironment() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: BenchEnvironment <env-file>");
            System.exit(2);
        }
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setServerConfig("max_connections", "300")
                // the embedded library's defaults are -F and synchronous_commit=off; -c options win over -F
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("wal_level", "logical")
                .setServerConfig("max_replication_slots", "10")
                .setServerConfig("max_wal_senders", "10")
                .start();
        String kafka = SharedKafka.bootstrapServers();
        Path out = Path.of(args[0]);
        Path partial = Path.of(args[0] + ".tmp");
        Files.writeString(
                partial,
                "KOPEK_DB_URL=" + postgres.getJdbcUrl("postgres", "postgres") + "\nKOPEK_KAFKA_BOOTSTRAP_SERVERS="
                        + kafka + "\n");
        Files.move(partial, out);
        System.out.println("bench environment ready");
        while (System.in.read() >= 0) {
            // runs until stdin closes
        }
        postgres.close();
        System.exit(0);
    }
}
