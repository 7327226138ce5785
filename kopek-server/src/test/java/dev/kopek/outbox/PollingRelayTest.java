package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PrefixedId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.outbox.relay.PollingRelay;
import dev.kopek.outbox.store.Envelope;
import dev.kopek.outbox.store.OutboxRow;
import dev.kopek.support.Api;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class PollingRelayTest extends OutboxIntegrationTest {

    private static final Duration KAFKA_WAIT = Duration.ofSeconds(20);

    @Autowired
    EventStatements events;

    /** Crashes exactly between the broker's acknowledgement and the marking, like a process killed there. */
    static final class CrashAfterPublish extends PollingRelay {
        static final class Killed extends RuntimeException {
            Killed() {
                super("relay killed after publishing, before marking", null, false, false);
            }
        }

        CrashAfterPublish(OutboxIntegrationTest test, int batchSize) {
            super(test.store, test.tx, test.publisher, test.clock, batchSize);
        }

        @Override
        protected void afterPublish(List<OutboxRow> batch) {
            throw new Killed();
        }
    }

    @Test
    void everyCommittedChangeIsOneEventPublishedInOrder() {
        Api api = newMerchant();
        Map<String, List<String>> expected = Map.of(
                "pm_ok", List.of("payment.created", "payment.captured"),
                "pm_declined", List.of("payment.created", "payment.declined"),
                "pm_5xx_no_charge", List.of("payment.created", "payment.unknown"));
        Map<String, String> paymentByMethod = new java.util.HashMap<>();
        for (String method : expected.keySet()) {
            Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 1500, "EUR", method));
            assertThat(paid.status()).as(method).isIn(201, 202);
            paymentByMethod.put(method, paid.text("id"));
        }

        expected.forEach((method, types) -> {
            List<StoredEvent> stored = eventsOf(paymentByMethod.get(method));
            assertThat(stored).as(method).extracting(StoredEvent::type).containsExactlyElementsOf(types);
            assertThat(stored).extracting(StoredEvent::sequence).isSorted().doesNotHaveDuplicates();
            assertThat(stored).noneMatch(StoredEvent::published);
        });
        clock.advance(Duration.ofSeconds(45));
        assertThat(scraped("kopek_outbox_lag_seconds"))
                .as("the oldest event Kafka has not acknowledged")
                .isGreaterThanOrEqualTo(45);

        drainOutbox();
        assertThat(scraped("kopek_outbox_lag_seconds"))
                .as("everything acknowledged")
                .isZero();

        Set<String> keys = new LinkedHashSet<>(paymentByMethod.values());
        List<EventsTopic.Published> records = EventsTopic.read(keys, seen -> seen.size() >= 6, KAFKA_WAIT);
        for (String payment : keys) {
            List<StoredEvent> stored = eventsOf(payment);
            assertThat(EventsTopic.ofKey(records, payment))
                    .extracting(EventsTopic.Published::eventId)
                    .containsExactlyElementsOf(
                            stored.stream().map(e -> Envelope.eventId(e.id())).toList());
            assertThat(stored).allMatch(StoredEvent::published);
        }
    }

    @Test
    void aRolledBackTransactionLeavesNoEvent() {
        MerchantId merchant = merchants.create("Rollback merchant").id();
        BusinessEvent rolledBack = syntheticEvent(merchant, UUID.randomUUID(), 0);
        BusinessEvent committed = syntheticEvent(merchant, UUID.randomUUID(), 0);

        assertThatThrownBy(() -> tx.executeWithoutResult(status -> {
                    events.write(rolledBack);
                    throw new IllegalStateException("the business change failed after announcing itself");
                }))
                .hasMessageContaining("business change failed");
        tx.executeWithoutResult(status -> events.write(committed));

        assertThat(eventsOf(rolledBack.publicId())).isEmpty();
        assertThat(eventsOf(committed.publicId())).hasSize(1);
    }

    @Test
    void anEventOutsideATransactionIsRefused() {
        MerchantId merchant = merchants.create("No-transaction merchant").id();
        BusinessEvent event = syntheticEvent(merchant, UUID.randomUUID(), 0);

        assertThatThrownBy(() -> events.write(event))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("outside a transaction");
        assertThat(eventsOf(event.publicId())).isEmpty();
    }

    @Test
    void aRelayKilledAfterPublishingLosesNothingAndDuplicatesKeepTheirIds() {
        drainOutbox();
        Api api = newMerchant();
        List<String> payments = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            payments.add(api.pay(Api.newKey(), Api.payment(newReference(), 700 + i, "EUR", "pm_ok"))
                    .text("id"));
        }

        assertThatThrownBy(new CrashAfterPublish(this, 100)::relayOnce).isInstanceOf(CrashAfterPublish.Killed.class);
        assertThat(payments).allSatisfy(p -> assertThat(eventsOf(p)).hasSize(2).noneMatch(StoredEvent::published));

        drainOutbox();

        List<EventsTopic.Published> records =
                EventsTopic.read(Set.copyOf(payments), seen -> seen.size() >= 20, KAFKA_WAIT);
        for (String payment : payments) {
            List<String> storedIds = eventsOf(payment).stream()
                    .map(e -> Envelope.eventId(e.id()))
                    .toList();
            List<EventsTopic.Published> copies = EventsTopic.ofKey(records, payment);
            assertThat(copies)
                    .as("each event twice: once before the crash, once after")
                    .extracting(EventsTopic.Published::eventId)
                    .containsExactlyElementsOf(concat(storedIds, storedIds));
            assertThat(copies.stream()
                            .collect(Collectors.groupingBy(
                                    EventsTopic.Published::eventId,
                                    Collectors.mapping(EventsTopic.Published::envelope, Collectors.toSet()))))
                    .as("a duplicate is the same record")
                    .allSatisfy((id, bodies) -> assertThat(bodies).hasSize(1));
            assertThat(firstOccurrences(copies)).containsExactlyElementsOf(storedIds);
        }
    }

    @Test
    void twoRelaysInParallelNeverLoseOrReorderAResourcesEvents() throws Exception {
        drainOutbox();
        MerchantId merchant = merchants.create("Parallel relays merchant").id();
        int resources = 30;
        int eventsEach = 8;
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < resources; i++) {
            ids.add(TimeOrderedIds.next(clock));
        }
        PollingRelay first = new PollingRelay(store, tx, publisher, clock, 7);
        PollingRelay second = new PollingRelay(store, tx, publisher, clock, 5);
        AtomicBoolean writing = new AtomicBoolean(true);
        CyclicBarrier start = new CyclicBarrier(3);

        try (var pool = Executors.newFixedThreadPool(3)) {
            Future<?> writer = pool.submit(() -> {
                start.await();
                List<UUID> order = new ArrayList<>();
                for (int seq = 0; seq < eventsEach; seq++) {
                    order.clear();
                    order.addAll(ids);
                    Collections.shuffle(order);
                    for (UUID id : order) {
                        long sequence = seq;
                        tx.executeWithoutResult(s -> events.write(syntheticEvent(merchant, id, sequence)));
                    }
                }
                writing.set(false);
                return null;
            });
            List<Future<Integer>> relays = new ArrayList<>();
            for (PollingRelay relay : List.of(first, second)) {
                relays.add(pool.submit(() -> {
                    start.await();
                    int published = 0;
                    while (writing.get() || store.unpublishedCount() > 0) {
                        int batch = relay.relayOnce();
                        published += batch;
                        if (batch == 0) {
                            Thread.sleep(2);
                        }
                    }
                    return published;
                }));
            }
            writer.get();
            assertThat(relays.get(0).get() + relays.get(1).get()).isGreaterThanOrEqualTo(resources * eventsEach);
            assertThat(relays)
                    .allSatisfy(
                            r -> assertThat(r.get()).as("both relays did work").isPositive());
        }

        Set<String> keys = ids.stream().map(PollingRelayTest::publicId).collect(Collectors.toSet());
        List<EventsTopic.Published> records =
                EventsTopic.read(keys, seen -> seen.size() >= resources * eventsEach, KAFKA_WAIT);
        List<Long> inOrder =
                java.util.stream.LongStream.range(0, eventsEach).boxed().toList();
        for (String key : keys) {
            assertThat(EventsTopic.ofKey(records, key))
                    .as(key)
                    .extracting(EventsTopic.Published::sequence)
                    .containsExactlyElementsOf(inOrder);
        }
    }

    private BusinessEvent syntheticEvent(MerchantId merchant, UUID resource, long sequence) {
        return new BusinessEvent(
                "test.step",
                "test",
                resource,
                publicId(resource),
                merchant,
                sequence,
                "{\"step\":" + sequence + "}",
                clock.instant());
    }

    static String publicId(UUID resource) {
        return PrefixedId.format("tst", resource);
    }

    private static List<String> firstOccurrences(List<EventsTopic.Published> copies) {
        return copies.stream().map(EventsTopic.Published::eventId).distinct().toList();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
