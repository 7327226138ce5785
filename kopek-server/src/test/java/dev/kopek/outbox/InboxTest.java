package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.money.TimeOrderedIds;
import dev.kopek.support.IntegrationTest;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class InboxTest extends IntegrationTest {

    @Autowired
    Inbox inbox;

    @Test
    void aDuplicatedDeliveryHasNoSecondEffect() {
        Inbox.Consumer ledger = inbox.consumer("test-ledger");
        UUID event = TimeOrderedIds.next(clock);
        AtomicInteger effects = new AtomicInteger();

        assertThat(ledger.processOnce(event, effects::incrementAndGet)).isTrue();
        assertThat(ledger.processOnce(event, effects::incrementAndGet)).isFalse();
        assertThat(inbox.consumer("test-accounting").processOnce(event, effects::incrementAndGet))
                .as("another consumer has its own inbox")
                .isTrue();
        assertThat(effects).hasValue(2);
    }

    @Test
    void aFailedHandlerLeavesNoTraceSoTheRedeliveryRunsIt() {
        Inbox.Consumer consumer = inbox.consumer("test-failing");
        UUID event = TimeOrderedIds.next(clock);

        assertThatThrownBy(() -> consumer.processOnce(event, () -> {
                    throw new IllegalStateException("downstream failed");
                }))
                .hasMessage("downstream failed");

        AtomicInteger effects = new AtomicInteger();
        assertThat(consumer.processOnce(event, effects::incrementAndGet)).isTrue();
        assertThat(effects).hasValue(1);
    }

    @Test
    void concurrentDuplicatesRunTheHandlerOnce() throws Exception {
        Inbox.Consumer consumer = inbox.consumer("test-concurrent");
        UUID event = TimeOrderedIds.next(clock);
        AtomicInteger effects = new AtomicInteger();
        int copies = 8;
        CyclicBarrier together = new CyclicBarrier(copies);
        List<Future<Boolean>> results = new ArrayList<>();
        try (var pool = Executors.newFixedThreadPool(copies)) {
            for (int i = 0; i < copies; i++) {
                results.add(pool.submit(() -> {
                    together.await();
                    return consumer.processOnce(event, effects::incrementAndGet);
                }));
            }
        }
        long firsts = 0;
        for (Future<Boolean> result : results) {
            firsts += result.get() ? 1 : 0;
        }
        assertThat(firsts).isEqualTo(1);
        assertThat(effects).hasValue(1);
    }
}
