package dev.kopek.outbox.relay;

import dev.kopek.outbox.store.OutboxRow;
import dev.kopek.outbox.store.OutboxStore;
import java.time.Clock;
import java.util.List;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The polling relay: in one transaction of its own (never a business one) it claims a batch (see
 * {@link OutboxStore#claimBatch}), publishes it, waits for the broker's acknowledgements and only then marks the
 * rows published. A relay that dies anywhere before the commit leaves the rows unpublished and unlocked, so
 * another pass publishes them again: at least once, duplicates carrying the same event id. Any number of relays
 * (threads or instances) share the work without reordering one resource's events.
 */
public class PollingRelay {

    private final OutboxStore store;
    private final TransactionTemplate tx;
    private final KafkaPublisher publisher;
    private final Clock clock;
    private final int batchSize;
    private final String mode;

    public PollingRelay(
            OutboxStore store, TransactionTemplate tx, KafkaPublisher publisher, Clock clock, int batchSize) {
        this(store, tx, publisher, clock, batchSize, "polling");
    }

    PollingRelay(
            OutboxStore store,
            TransactionTemplate tx,
            KafkaPublisher publisher,
            Clock clock,
            int batchSize,
            String mode) {
        this.store = store;
        this.tx = tx;
        this.publisher = publisher;
        this.clock = clock;
        this.batchSize = batchSize;
        this.mode = mode;
    }

    /** One batch; returns how many events it published. */
    public int relayOnce() {
        Integer published = tx.execute(status -> {
            List<OutboxRow> batch = store.claimBatch(batchSize);
            if (batch.isEmpty()) {
                return 0;
            }
            publisher.publish(batch, mode);
            afterPublish(batch);
            store.markPublished(batch.stream().map(OutboxRow::id).toList(), clock.instant());
            return batch.size();
        });
        return published == null ? 0 : published;
    }

    /** Publishes until the outbox is empty or {@code maxBatches} were sent; returns how many events. */
    public int drain(int maxBatches) {
        int total = 0;
        for (int i = 0; i < maxBatches; i++) {
            int published = relayOnce();
            total += published;
            if (published < batchSize) {
                break;
            }
        }
        return total;
    }

    /** Between the broker's acknowledgement and the marking: where a crash leaves duplicates. Tests override it. */
    protected void afterPublish(List<OutboxRow> batch) {}
}
