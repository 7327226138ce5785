package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** What the CDC relay's mark relies on: the count of rows marked, and when every earlier writer has ended. */
class OutboxMarkTest extends OutboxIntegrationTest {

    @Autowired
    DataSource dataSource;

    @Test
    void theMarkCountsRowsMarkedNowOrBeforeAndNotRowsItCannotSee() throws Exception {
        UUID before = UUID.randomUUID();
        UUID now = UUID.randomUUID();
        try (Connection c = dataSource.getConnection()) {
            insertEvent(c, before);
            insertEvent(c, now);
        }
        store.markPublished(List.of(before), clock.instant());

        assertThat(store.markPublishedAndCount(List.of(before, now, UUID.randomUUID()), clock.instant()))
                .isEqualTo(2);
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE id IN (:ids) AND published_at IS NOT NULL")
                        .param("ids", List.of(before, now))
                        .query(Integer.class)
                        .single())
                .isEqualTo(2);
    }

    @Test
    void aTransactionThatWroteBeforeTheHorizonHoldsItUntilItEnds() throws Exception {
        UUID id = UUID.randomUUID();
        try (Connection open = dataSource.getConnection()) {
            open.setAutoCommit(false);
            insertEvent(open, id);
            long horizon = store.newTransactionId();
            assertThat(store.endedThrough(horizon)).isFalse();
            assertThat(store.markPublishedAndCount(List.of(id), clock.instant()))
                    .isZero();

            open.commit();
            open.setAutoCommit(true);
            // Other writers of this context (the ledger projector) may hold the horizon a moment longer.
            for (int i = 0; i < 100 && !store.endedThrough(horizon); i++) {
                Thread.sleep(50);
            }
            assertThat(store.endedThrough(horizon)).isTrue();
        }
        assertThat(store.markPublishedAndCount(List.of(id), clock.instant())).isEqualTo(1);
    }

    private static void insertEvent(Connection c, UUID id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                INSERT INTO outbox (id, event_type, resource_type, resource_id, public_id, sequence, merchant_id,
                                    envelope, created_at)
                VALUES (?, 'payment.marked', 'payment', ?, ?, 0, ?, '{}', ?)
                """)) {
            s.setObject(1, id);
            s.setObject(2, UUID.randomUUID());
            s.setString(3, "pay_" + UUID.randomUUID().toString().replace("-", ""));
            s.setObject(4, UUID.randomUUID());
            s.setObject(5, OffsetDateTime.now());
            s.executeUpdate();
        }
    }
}
