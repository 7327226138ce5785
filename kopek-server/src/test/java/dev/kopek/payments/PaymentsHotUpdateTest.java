package dev.kopek.payments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Migrations;
import dev.kopek.support.TestDatabase;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Captures and refunds update a payment several times (reserve, settle, transition); PostgreSQL makes such an update
 * heap-only (HOT: no new entry in any index) only when no index on the table names a column it changes, in its key,
 * an expression or its predicate (V195, issue 25). This keeps a new or changed index on {@code payments} from
 * silently sending every capture and refund through all the table's indexes again.
 */
class PaymentsHotUpdateTest {

    /**
     * The columns a capture or a refund changes on an authorized payment (PaymentStore's reserve, settle and
     * transition statements). capture_finalized is not here: a final capture changes it, and the expiry index must
     * name it, so that a finalized hold leaves the index.
     */
    private static final List<String> CHANGED_BY_CAPTURES_AND_REFUNDS = List.of(
            "status",
            "version",
            "updated_at",
            "amount_captured",
            "amount_capture_pending",
            "amount_released",
            "amount_refunded",
            "amount_refund_pending");

    private static JdbcClient jdbc;

    @BeforeAll
    static void migrate() {
        DriverManagerDataSource source = new DriverManagerDataSource(TestDatabase.newDatabase(), "postgres", "");
        Migrations.flyway(source).migrate();
        jdbc = JdbcClient.create(source);
    }

    @Test
    void noIndexOnPaymentsNamesAColumnThatCapturesAndRefundsChange() {
        List<String> indexes = jdbc.sql("SELECT indexdef FROM pg_indexes WHERE tablename = 'payments'")
                .query(String.class)
                .list();

        assertThat(indexes).as("indexes on payments").isNotEmpty();
        for (String column : CHANGED_BY_CAPTURES_AND_REFUNDS) {
            Pattern named = Pattern.compile("\\b" + column + "\\b");
            assertThat(indexes)
                    .as("indexes naming %s, which captures and refunds change (their updates could not be HOT)", column)
                    .noneMatch(index -> named.matcher(index).find());
        }
    }

    @Test
    void paymentPagesKeepRoomForUpdatedRows() {
        List<String> options = jdbc.sql("SELECT unnest(reloptions) FROM pg_class WHERE relname = 'payments'")
                .query(String.class)
                .list();

        assertThat(options).contains("fillfactor=85");
    }
}
