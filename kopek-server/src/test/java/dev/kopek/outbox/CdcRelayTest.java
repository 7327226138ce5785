package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.outbox.relay.CdcRelay;
import dev.kopek.outbox.store.Envelope;
import dev.kopek.support.Api;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * KOPEK_OUTBOX_MODE=cdc: Debezium's embedded PostgreSQL connector streams the outbox inserts from the WAL. The
 * polling relay is not run here after the start, so what reaches the topic afterwards came through the slot.
 */
class CdcRelayTest extends OutboxIntegrationTest {

    @Autowired
    CdcRelay cdc;

    @Autowired
    MeterRegistry meters;

    @Autowired
    DataSource dataSource;

    @Test
    void cdcModePublishesTheSameEventsInOrder() throws Exception {
        drainOutbox();
        Api api = newMerchant();
        String before = api.pay(Api.newKey(), Api.payment(newReference(), 900, "EUR", "pm_ok"))
                .text("id");
        List<String> after = new ArrayList<>();
        try {
            assertThat(cdc.ensureRunning()).isTrue();
            awaitSlotActive();
            double viaCdcBefore = publishedViaCdc();
            after.add(api.pay(Api.newKey(), Api.payment(newReference(), 901, "EUR", "pm_ok"))
                    .text("id"));
            after.add(api.pay(Api.newKey(), Api.payment(newReference(), 902, "EUR", "pm_declined"))
                    .text("id"));
            after.add(api.pay(Api.newKey(), Api.payment(newReference(), 903, "EUR", "pm_5xx_no_charge"))
                    .text("id"));

            List<String> all = new ArrayList<>(after);
            all.add(before);
            List<EventsTopic.Published> records = EventsTopic.read(
                    Set.copyOf(all),
                    seen -> seen.stream()
                                    .map(EventsTopic.Published::eventId)
                                    .distinct()
                                    .count()
                            >= 8,
                    Duration.ofSeconds(30));
            for (String payment : all) {
                List<String> stored = eventsOf(payment).stream()
                        .map(e -> Envelope.eventId(e.id()))
                        .toList();
                assertThat(stored).hasSize(2);
                assertThat(EventsTopic.ofKey(records, payment).stream()
                                .map(EventsTopic.Published::eventId)
                                .distinct()
                                .toList())
                        .as(payment)
                        .containsExactlyElementsOf(stored);
            }
            assertThat(publishedViaCdc() - viaCdcBefore).isGreaterThanOrEqualTo(6);
            awaitAllPublished(all);
        } finally {
            cdc.stop();
            dropSlot(cdc.slot());
        }
    }

    /**
     * The slot hands a transaction over once its commit record is flushed, and that is before the writer has left
     * PostgreSQL's running transactions: for a moment normally (the crash run's CDC drain found one such row left
     * unmarked, its event on the topic), until the standby confirms with a synchronous standby. A synchronous
     * standby that never answers holds one commit in that state for as long as the test needs: the event reaches
     * the topic while no other session can see its row, and the row must still be marked once it can be seen.
     */
    @Test
    void aRowStreamedBeforeItsTransactionIsVisibleIsMarkedOnceItIs() throws Exception {
        drainOutbox();
        String publicId = "pay_" + UUID.randomUUID().toString().replace("-", "");
        HeldCommit held = null;
        try {
            assertThat(cdc.ensureRunning()).isTrue();
            awaitSlotActive();
            synchronousStandbys("kopek_absent_standby");
            held = commitHeldForTheStandby(publicId);
            assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE id = :id")
                            .param("id", held.id())
                            .query(Integer.class)
                            .single())
                    .as("the held row is invisible to other sessions")
                    .isZero();
            String eventId = Envelope.eventId(held.id());
            EventsTopic.read(
                    Set.of(publicId),
                    seen -> seen.stream().anyMatch(p -> p.eventId().equals(eventId)),
                    Duration.ofSeconds(30));

            synchronousStandbys(null);
            held.writer().join();
            assertThat(held.failure().get()).isNull();
            awaitPublished(held.id());
        } finally {
            synchronousStandbys(null);
            if (held != null) {
                held.writer().join();
            }
            cdc.stop();
            dropSlot(cdc.slot());
        }
    }

    private record HeldCommit(UUID id, Thread writer, AtomicReference<Throwable> failure) {}

    /**
     * Inserts an outbox row in a transaction that commits with synchronous_commit=on (the test server's default is
     * off) and returns once that commit waits for the standby. The checkpointer takes a new standby setting a
     * moment after the reload; a commit that slipped through before is simply an ordinary event, and another try
     * follows.
     */
    private HeldCommit commitHeldForTheStandby(String publicId) throws Exception {
        for (int attempt = 1; attempt <= 50; attempt++) {
            UUID id = UUID.randomUUID();
            CompletableFuture<Integer> backend = new CompletableFuture<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long sequence = attempt;
            Thread writer = Thread.ofPlatform().name("held-commit").start(() -> {
                try (Connection c = dataSource.getConnection()) {
                    c.setAutoCommit(false);
                    try (Statement s = c.createStatement()) {
                        try (ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                            rs.next();
                            backend.complete(rs.getInt(1));
                        }
                        s.execute("SET LOCAL synchronous_commit = on");
                    }
                    insertEvent(c, id, publicId, sequence);
                    c.commit();
                } catch (SQLException | RuntimeException e) {
                    failure.set(e);
                    backend.completeExceptionally(e);
                }
            });
            int pid = backend.get();
            while (writer.isAlive()) {
                String waiting = jdbc.sql("SELECT wait_event FROM pg_stat_activity WHERE pid = :pid")
                        .param("pid", pid)
                        .query(String.class)
                        .optional()
                        .orElse(null);
                if ("SyncRep".equals(waiting)) {
                    return new HeldCommit(id, writer, failure);
                }
                Thread.sleep(10);
            }
            assertThat(failure.get()).isNull();
        }
        throw new AssertionError("no commit ever waited for the synchronous standby");
    }

    private static void insertEvent(Connection c, UUID id, String publicId, long sequence) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                INSERT INTO outbox (id, event_type, resource_type, resource_id, public_id, sequence, merchant_id,
                                    envelope, created_at)
                VALUES (?, 'payment.held', 'payment', ?, ?, ?, ?, '{}', ?)
                """)) {
            s.setObject(1, id);
            s.setObject(2, UUID.randomUUID());
            s.setString(3, publicId);
            s.setLong(4, sequence);
            s.setObject(5, UUID.randomUUID());
            s.setObject(6, OffsetDateTime.now());
            s.executeUpdate();
        }
    }

    /** Sets, or with null resets, the synchronous standbys a commit with synchronous_commit=on waits for. */
    private void synchronousStandbys(String names) {
        jdbc.sql(
                        names == null
                                ? "ALTER SYSTEM RESET synchronous_standby_names"
                                : "ALTER SYSTEM SET synchronous_standby_names = '" + names + "'")
                .update();
        jdbc.sql("SELECT pg_reload_conf()").query(Boolean.class).single();
    }

    private void awaitPublished(UUID id) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (jdbc.sql("SELECT published_at IS NOT NULL FROM outbox WHERE id = :id")
                    .param("id", id)
                    .query(Boolean.class)
                    .optional()
                    .orElse(false)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("CDC published event " + id + " but never marked its row");
    }

    private double publishedViaCdc() {
        var counter = meters.find("kopek.outbox.published").tag("mode", "cdc").counter();
        return counter == null ? 0 : counter.count();
    }

    private void awaitSlotActive() throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            Boolean active = jdbc.sql("SELECT active FROM pg_replication_slots WHERE slot_name = :slot")
                    .param("slot", cdc.slot())
                    .query(Boolean.class)
                    .optional()
                    .orElse(false);
            if (active && cdc.isRunning()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the CDC engine never attached to slot " + cdc.slot());
    }

    private void awaitAllPublished(List<String> payments) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (payments.stream().allMatch(p -> eventsOf(p).stream().allMatch(StoredEvent::published))) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("CDC published but did not mark the rows");
    }
}
