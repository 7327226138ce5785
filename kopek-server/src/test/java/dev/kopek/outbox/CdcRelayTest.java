package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.outbox.relay.CdcRelay;
import dev.kopek.outbox.store.Envelope;
import dev.kopek.support.Api;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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

    @Test
    void cdcModePublishesTheSameEventsInOrder() throws Exception {
        drainOutbox();
        Api api = newMerchant();
        String before = api.pay(Api.newKey(), Api.payment(newReference(), 900, "EUR", "pm_ok")).text("id");
        List<String> after = new ArrayList<>();
        try {
            assertThat(cdc.ensureRunning()).isTrue();
            awaitSlotActive();
            double viaCdcBefore = publishedViaCdc();
            after.add(api.pay(Api.newKey(), Api.payment(newReference(), 901, "EUR", "pm_ok")).text("id"));
            after.add(api.pay(Api.newKey(), Api.payment(newReference(), 902, "EUR", "pm_declined")).text("id"));
            after.add(api.pay(Api.newKey(), Api.payment(newReference(), 903, "EUR", "pm_5xx_no_charge")).text("id"));

            List<String> all = new ArrayList<>(after);
            all.add(before);
            List<EventsTopic.Published> records = EventsTopic.read(Set.copyOf(all),
                    seen -> seen.stream().map(EventsTopic.Published::eventId).distinct().count() >= 8,
                    Duration.ofSeconds(30));
            for (String payment : all) {
                List<String> stored = eventsOf(payment).stream().map(e -> Envelope.eventId(e.id())).toList();
                assertThat(stored).hasSize(2);
                assertThat(EventsTopic.ofKey(records, payment).stream().map(EventsTopic.Published::eventId)
                        .distinct().toList()).as(payment).containsExactlyElementsOf(stored);
            }
            assertThat(publishedViaCdc() - viaCdcBefore).isGreaterThanOrEqualTo(6);
            awaitAllPublished(all);
        } finally {
            cdc.stop();
            dropSlot();
        }
    }

    /** A slot nobody reads retains WAL for ever: tests drop theirs (the walsender may take a moment to leave). */
    private void dropSlot() throws InterruptedException {
        for (int i = 0; i < 50; i++) {
            int dropped = jdbc.sql("""
                    SELECT count(pg_drop_replication_slot(slot_name)) FROM pg_replication_slots
                     WHERE slot_name = :slot AND NOT active
                    """)
                    .param("slot", cdc.slot()).query(Integer.class).single();
            if (dropped == 1) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("slot " + cdc.slot() + " stayed active after the engine stopped");
    }

    private double publishedViaCdc() {
        var counter = meters.find("kopek.outbox.published").tag("mode", "cdc").counter();
        return counter == null ? 0 : counter.count();
    }

    private void awaitSlotActive() throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            Boolean active = jdbc.sql("SELECT active FROM pg_replication_slots WHERE slot_name = :slot")
                    .param("slot", cdc.slot()).query(Boolean.class).optional().orElse(false);
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
