package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.kopek.support.Api;
import dev.kopek.support.OwnKopek;
import dev.kopek.support.OwnPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A rolling upgrade, found in review (high availability): the new version's expand migration adds a column to a
 * table while an instance of the old version keeps serving. The old instance's pooled connections hold server-side
 * prepared statements (pgjdbc prepares a statement on its fifth use) that read the table with {@code SELECT *} or
 * {@code RETURNING *}; PostgreSQL refuses to run such a statement once its result type changed (0A000, "cached plan
 * must not change result type"). pgjdbc runs such a statement again by itself in autocommit and then prepares all
 * of that connection's statements afresh; inside a transaction the transaction is lost. Kopek answers that 503
 * database_unavailable with Retry-After (the retry goes through), and a payment's own transactions run once more.
 * The pool has one connection, so that the statements the test prepares are the ones the migration breaks.
 */
class RollingUpgradeTest {

    private static final int WARM_ROUNDS = 12;
    /** pgjdbc's prepareThreshold: the use on which a statement becomes a server-side prepared statement. */
    private static final int PREPARE_THRESHOLD = 5;

    private static OwnKopek own;
    private static OwnPostgres server;
    private static ConfigurableApplicationContext kopek;
    private static Api api;
    private static final List<String[]> PAID = new ArrayList<>();

    @BeforeAll
    static void start() {
        own = OwnKopek.start("--kopek.db.pool-size=1");
        server = own.server();
        kopek = own.context();
        api = own.merchant("Upgrade merchant");
    }

    @AfterAll
    static void stop() {
        if (own != null) {
            own.close();
        }
    }

    @Test
    void anExpandMigrationUnderARunningInstanceIsNeverA500() {
        List<String> before = rounds();
        assertThat(before).as("the old instance serves before the migration").allMatch(a -> a.startsWith("2"));

        // The new version's migration, from its own connection: one column more on each table the old code reads
        // with SELECT * or RETURNING *.
        migrate(
                "ALTER TABLE payments ADD COLUMN upgrade_note text",
                "ALTER TABLE payment_operations ADD COLUMN upgrade_note text",
                "ALTER TABLE idempotency_keys ADD COLUMN upgrade_note text");

        List<String> after = new ArrayList<>();
        for (String[] payment : PAID) {
            Api.Response replayed = api.pay(payment[0], payment[1]);
            after.add(replayed.status() + " old-replay " + replayed.body());
        }
        after.addAll(rounds());
        assertThat(after).as("no answer after the migration is a 500").noneMatch(a -> a.startsWith("5"));
    }

    @Test
    void aTransactionThatMeetsATableChangedUnderItsStatementIsRunAgain() {
        ConnectionWait wait = kopek.getBean(ConnectionWait.class);
        TransactionTemplate tx = kopek.getBean(TransactionTemplate.class);
        migrateUnderAPreparedStatement("again_note");

        int[] runs = {0};
        long merchants = wait.patiently(() -> tx.execute(status -> {
            runs[0]++;
            return readMerchants();
        }));

        assertThat(merchants).isPositive();
        assertThat(runs[0]).as("the refused transaction ran once more").isEqualTo(2);
    }

    @Test
    void aStatementRefusedForATableChangedUnderItIsA503WithRetryAfter() {
        TransactionTemplate tx = kopek.getBean(TransactionTemplate.class);
        DatabaseOutages outages = kopek.getBean(DatabaseOutages.class);
        migrateUnderAPreparedStatement("refused_note");

        Throwable refused = catchThrowable(() -> tx.execute(status -> readMerchants()));

        assertThat(refused).hasStackTraceContaining("cached plan must not change result type");
        ApiProblem problem = outages.problemFor(refused, new MockHttpServletRequest("GET", "/v1/balance"))
                .orElseThrow();
        assertThat(problem.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(problem.code()).isEqualTo("database_unavailable");
        assertThat(problem.headers()).containsEntry(HttpHeaders.RETRY_AFTER, DatabaseOutages.RETRY_AFTER_SECONDS);
        Long again = tx.execute(status -> readMerchants());
        assertThat(again)
                .as("the connection prepares its statements afresh after the refusal")
                .isPositive();
    }

    /**
     * Found in review: HikariCP counts 0A000 among its fatal states and evicted the pool's connection, with a warning
     * and a stack trace, though the connection was sound; the refusal must leave the connection in the pool. The
     * pool has one connection, so the same server session before and after means it was not replaced.
     */
    @Test
    void aConnectionRefusedForATableChangedUnderItStaysInThePool() {
        TransactionTemplate tx = kopek.getBean(TransactionTemplate.class);
        int session = backend();
        migrateUnderAPreparedStatement("kept_note");

        Throwable refused = catchThrowable(() -> tx.execute(status -> readMerchants()));

        assertThat(refused).hasStackTraceContaining("cached plan must not change result type");
        assertThat(backend())
                .as("the server session of the pool's one connection")
                .isEqualTo(session);
    }

    private static int backend() {
        return kopek.getBean(JdbcClient.class)
                .sql("SELECT pg_backend_pid()")
                .query(Integer.class)
                .single();
    }

    /**
     * Prepares the merchants read on the pool's one connection (pgjdbc does on the fifth use; each in a transaction,
     * where pgjdbc does not run a refused statement again by itself), then adds {@code column} to the table from a
     * connection of the migration's own.
     */
    private static void migrateUnderAPreparedStatement(String column) {
        TransactionTemplate tx = kopek.getBean(TransactionTemplate.class);
        for (int i = 0; i < PREPARE_THRESHOLD + 1; i++) {
            tx.execute(status -> readMerchants());
        }
        migrate("ALTER TABLE merchants ADD COLUMN " + column + " text");
    }

    private static long readMerchants() {
        return kopek.getBean(JdbcClient.class)
                .sql("SELECT * FROM merchants ORDER BY id")
                .query((rs, row) -> rs.getObject("id"))
                .list()
                .size();
    }

    private static void migrate(String... statements) {
        try (Connection migration = server.connect(OwnPostgres.DATABASE);
                Statement s = migration.createStatement()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Each round pays, reads the payment and refunds part of it; the answers, as "status what body". */
    private static List<String> rounds() {
        List<String> answers = new ArrayList<>();
        for (int i = 0; i < WARM_ROUNDS; i++) {
            String key = Api.newKey();
            String body = Api.payment(Api.unique("upgrade"), 1_000, "EUR", "pm_ok");
            Api.Response paid = api.pay(key, body);
            answers.add(paid.status() + " pay " + paid.body());
            PAID.add(new String[] {key, body});
            Api.Response replayed = api.pay(key, body);
            answers.add(replayed.status() + " replay " + replayed.body());
            if (paid.status() != 201) {
                continue;
            }
            String id = paid.text("id");
            Api.Response read = api.get("/v1/payments/" + id);
            answers.add(read.status() + " read " + read.body());
            Api.Response refunded = api.post("/v1/payments/" + id + "/refunds", Api.newKey(), "{\"amount\":100}");
            answers.add(refunded.status() + " refund " + refunded.body());
        }
        return answers;
    }
}
