package dev.kopek.bench.ledger;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Postings per second on one hot account (the platform's PSP receivable, which every capture debits) with 1 and
 * with N balance shards. Each posting is a capture with a fee: three entries (receivable, the thread's own
 * merchant payable, platform revenue), written by the ledger's own statement — header and entries in one
 * INSERT — so the balance projection, the lock order and the deferred balance check all run inside PostgreSQL
 * exactly as in Kopek. Each thread has its own merchant, so the only rows the threads share are the hot ones.
 *
 * <p>The module has no dependencies of its own (JDK only), so this driver finds PostgreSQL's JDBC driver and,
 * without {@code --jdbc-url}, zonky's embedded PostgreSQL on the class path at run time: run it with kopek-server's
 * runtime class path (see {@code --help}). The schema comes from kopek-server's migrations V1 (merchants) and V10
 * (ledger), read from the class path or from {@code --migrations}.
 */
public final class LedgerBenchmark {

    private static final PrintStream OUT = System.out;
    private static final String USAGE = """
            usage (from the repository root, after ./mvnw -o -pl benchmarks compile):
              ./mvnw -o -q -pl kopek-server dependency:build-classpath -Dmdep.outputFile=/tmp/kopek-cp.txt
              java -cp benchmarks/target/classes:$(cat /tmp/kopek-cp.txt) \\
                   dev.kopek.bench.ledger.LedgerBenchmark [options]
            options:
              --jdbc-url URL     an empty database to use (default: start an embedded PostgreSQL 17)
              --migrations DIR   where V1__core.sql and V10__ledger.sql are (default: class path db/migration/,
                                 then kopek-server/src/main/resources/db/migration)
              --threads N        concurrent posting threads (default 32)
              --seconds S        measured seconds per shard count (default 10; plus 2 s warm-up)
              --shards LIST      shard counts to compare (default 1,8)
              --fsync on|off     embedded PostgreSQL only: durable commits or not (default on)
            """;

    // Copied from kopek-server's JournalStore.insert (three lines); the rest of the path is in the database.
    private static final String POSTING = """
            WITH header AS (
                INSERT INTO ledger_transactions (id, merchant_id, payment_id, source_id, kind, amount_minor,
                                                 currency, reverses, reason, entry_count, occurred_at, recorded_at)
                VALUES (?, ?, ?, ?, 'CAPTURED', ?, 'EUR', NULL, NULL, 3, now(), now())
                ON CONFLICT (source_id, kind) DO NOTHING
                RETURNING id
            ), lines (line, account_id, platform, side, amount_minor) AS (
                VALUES (1, CAST(? AS bigint), TRUE, CAST('debit' AS text), CAST(? AS bigint)),
                       (2, CAST(? AS bigint), FALSE, CAST('credit' AS text), CAST(? AS bigint)),
                       (3, CAST(? AS bigint), TRUE, CAST('credit' AS text), CAST(? AS bigint))
            )
            INSERT INTO ledger_entries (transaction_id, entry_count, line, account_id, side, amount_minor, currency)
            SELECT header.id, 3, lines.line, lines.account_id, lines.side, lines.amount_minor, 'EUR'
              FROM header, lines
             ORDER BY lines.platform, lines.account_id, lines.line
            """;

    record Options(String jdbcUrl, Path migrations, int threads, int seconds, int[] shards, boolean fsync) {
    }

    record Result(int shards, long postings, double perSecond, double p50Millis, double p99Millis, long rowsUsed) {
    }

    private LedgerBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Options options = parse(args);
        if (options == null) {
            OUT.print(USAGE);
            return;
        }
        AutoCloseable embedded = null;
        String url = options.jdbcUrl();
        if (url == null) {
            Object postgres = Embedded.start(options.fsync());
            embedded = (AutoCloseable) postgres;
            url = Embedded.jdbcUrl(postgres);
        }
        try {
            run(url, options);
        } finally {
            if (embedded != null) {
                embedded.close();
            }
        }
    }

    private static void run(String url, Options o) throws Exception {
        try (Connection c = DriverManager.getConnection(url)) {
            String version;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW server_version")) {
                rs.next();
                version = rs.getString(1);
            }
            OUT.printf(Locale.ROOT, "Kopek ledger benchmark: PostgreSQL %s, %d threads, %d s per run, %d cores%n",
                    version, o.threads(), o.seconds(), Runtime.getRuntime().availableProcessors());
            migrate(c, o.migrations());
        }
        Accounts accounts = accounts(url, o.threads());
        List<Result> results = new ArrayList<>();
        for (int shards : o.shards()) {
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE ledger_settings SET hot_shards = " + shards);
            }
            drive(url, accounts, o.threads(), 2);
            results.add(measure(url, accounts, o, shards));
        }
        OUT.println();
        OUT.println("shards  postings   postings/s   p50 ms   p99 ms   receivable balance rows");
        for (Result r : results) {
            OUT.printf(Locale.ROOT, "%6d  %8d   %10.0f   %6.2f   %6.2f   %d%n", r.shards(), r.postings(), r.perSecond(),
                    r.p50Millis(), r.p99Millis(), r.rowsUsed());
        }
        verify(url, accounts);
    }

    private static Result measure(String url, Accounts accounts, Options o, int shards) throws Exception {
        long[][] latencies = drive(url, accounts, o.threads(), o.seconds());
        long[] all = Arrays.stream(latencies).flatMapToLong(Arrays::stream).sorted().toArray();
        long rows;
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement s = c.prepareStatement("SELECT count(*) FROM ledger_balances WHERE account_id = ?")) {
            s.setLong(1, accounts.receivable());
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                rows = rs.getLong(1);
            }
        }
        return new Result(shards, all.length, all.length / (double) o.seconds(), percentile(all, 0.50),
                percentile(all, 0.99), rows);
    }

    /** Each thread posts captures back to back for {@code seconds}; returns each thread's latencies in nanoseconds. */
    private static long[][] drive(String url, Accounts accounts, int threads, int seconds) throws Exception {
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        AtomicBoolean stop = new AtomicBoolean();
        long[][] latencies = new long[threads][];
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < threads; t++) {
            int thread = t;
            workers.add(Thread.ofPlatform().start(() -> {
                try (Connection c = DriverManager.getConnection(url);
                        PreparedStatement s = c.prepareStatement(POSTING)) {
                    c.setAutoCommit(false);
                    long[] own = new long[1 << 16];
                    int n = 0;
                    start.await();
                    while (!stop.get()) {
                        long began = System.nanoTime();
                        post(s, accounts, thread);
                        c.commit();
                        if (n == own.length) {
                            own = Arrays.copyOf(own, n * 2);
                        }
                        own[n++] = System.nanoTime() - began;
                    }
                    latencies[thread] = Arrays.copyOf(own, n);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        start.await();
        TimeUnit.SECONDS.sleep(seconds);
        stop.set(true);
        for (Thread w : workers) {
            w.join();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a posting failed", failures.getFirst());
        }
        return latencies;
    }

    private static void post(PreparedStatement s, Accounts accounts, int thread) throws SQLException {
        long amount = ThreadLocalRandom.current().nextLong(100, 1_000_000);
        long fee = (amount * 150 + 5_000) / 10_000 + 25;
        UUID id = UUID.randomUUID();
        s.setObject(1, id);
        s.setObject(2, accounts.merchants()[thread]);
        s.setObject(3, id);
        s.setObject(4, id);
        s.setLong(5, amount);
        s.setLong(6, accounts.receivable());
        s.setLong(7, amount);
        s.setLong(8, accounts.payables()[thread]);
        s.setLong(9, amount - fee);
        s.setLong(10, accounts.revenue());
        s.setLong(11, fee);
        if (s.executeUpdate() != 3) {
            throw new IllegalStateException("posting " + id + " wrote no entries");
        }
    }

    record Accounts(long receivable, long revenue, UUID[] merchants, long[] payables) {
    }

    private static Accounts accounts(String url, int threads) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            long receivable = account(c, null, "PSP_RECEIVABLE");
            long revenue = account(c, null, "PLATFORM_REVENUE");
            UUID[] merchants = new UUID[threads];
            long[] payables = new long[threads];
            for (int t = 0; t < threads; t++) {
                merchants[t] = UUID.randomUUID();
                try (PreparedStatement s = c.prepareStatement(
                        "INSERT INTO merchants (id, name, created_at) VALUES (?, ?, now())")) {
                    s.setObject(1, merchants[t]);
                    s.setString(2, "bench " + t);
                    s.executeUpdate();
                }
                payables[t] = account(c, merchants[t], "MERCHANT_PAYABLE");
            }
            return new Accounts(receivable, revenue, merchants, payables);
        }
    }

    private static long account(Connection c, UUID merchant, String type) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                INSERT INTO ledger_accounts (merchant_id, type, currency, created_at) VALUES (?, ?, 'EUR', now())
                RETURNING id
                """)) {
            s.setObject(1, merchant);
            s.setString(2, type);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Correctness first: the sharded projection must equal the entries, exactly. */
    private static void verify(String url, Accounts accounts) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); PreparedStatement s = c.prepareStatement("""
                SELECT (SELECT sum(debit_minor) - sum(credit_minor) FROM ledger_balances WHERE account_id = ?),
                       (SELECT sum(CASE side WHEN 'debit' THEN amount_minor ELSE -amount_minor END)
                          FROM ledger_entries WHERE account_id = ?),
                       (SELECT count(*) FROM ledger_transactions)
                """)) {
            s.setLong(1, accounts.receivable());
            s.setLong(2, accounts.receivable());
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                long projected = rs.getLong(1);
                long entries = rs.getLong(2);
                OUT.printf(Locale.ROOT, "%ncheck: %d postings; receivable projected %d, from entries %d: %s%n",
                        rs.getLong(3), projected, entries, projected == entries ? "exact" : "DRIFT");
                if (projected != entries) {
                    throw new IllegalStateException("the hot account drifted");
                }
            }
        }
    }

    private static void migrate(Connection c, Path dir) throws IOException, SQLException {
        for (String file : List.of("V1__core.sql", "V10__ledger.sql")) {
            try (Statement s = c.createStatement()) {
                s.execute(migration(dir, file));
            }
        }
    }

    private static String migration(Path dir, String file) throws IOException {
        if (dir != null) {
            return Files.readString(dir.resolve(file));
        }
        try (InputStream in = LedgerBenchmark.class.getClassLoader().getResourceAsStream("db/migration/" + file)) {
            if (in != null) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
        return Files.readString(Path.of("kopek-server/src/main/resources/db/migration").resolve(file));
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1_000_000.0;
    }

    private static Options parse(String[] args) {
        String url = null;
        Path migrations = null;
        int threads = 32;
        int seconds = 10;
        int[] shards = {1, 8};
        boolean fsync = true;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--help", "-h" -> {
                    return null;
                }
                case "--jdbc-url" -> url = value;
                case "--migrations" -> migrations = Path.of(value);
                case "--threads" -> threads = Integer.parseInt(value);
                case "--seconds" -> seconds = Integer.parseInt(value);
                case "--shards" -> shards = Arrays.stream(value.split(",")).mapToInt(Integer::parseInt).toArray();
                case "--fsync" -> fsync = !"off".equals(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "\n" + USAGE);
            }
            i++;
        }
        return new Options(url, migrations, threads, seconds, shards, fsync);
    }

    /**
     * zonky's embedded PostgreSQL, reached by reflection because this module compiles against the JDK only; it is on
     * kopek-server's class path, which this driver runs with.
     */
    static final class Embedded {

        private Embedded() {
        }

        static Object start(boolean fsync) throws ReflectiveOperationException {
            Class<?> type = Class.forName("io.zonky.test.db.postgres.embedded.EmbeddedPostgres");
            Object builder = type.getMethod("builder").invoke(null);
            var config = builder.getClass().getMethod("setServerConfig", String.class, String.class);
            config.invoke(builder, "max_connections", "300");
            config.invoke(builder, "shared_buffers", "256MB");
            if (!fsync) {
                config.invoke(builder, "fsync", "off");
                config.invoke(builder, "synchronous_commit", "off");
            }
            return builder.getClass().getMethod("start").invoke(builder);
        }

        static String jdbcUrl(Object postgres) throws ReflectiveOperationException {
            return (String) postgres.getClass().getMethod("getJdbcUrl", String.class, String.class)
                    .invoke(postgres, "postgres", "postgres");
        }
    }
}
