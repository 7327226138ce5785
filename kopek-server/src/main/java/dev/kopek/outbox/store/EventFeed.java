package dev.kopek.outbox.store;

import dev.kopek.money.MerchantId;
import dev.kopek.platform.ReadReplica;
import java.util.List;
import org.springframework.stereotype.Service;

/**
 * The merchant's event feed: their events only (L11), in a stable order, one page at a time. Read on the read
 * replica when there is one (docs/read-replicas.md): the feed shows only events of transactions older than every
 * transaction still running in the server's snapshot, and a hot standby's snapshot counts as running every
 * transaction it has not replayed the end of, so a lagging replica answers a shorter or empty page, never one with a
 * hole; the cursor it returns continues on any server.
 */
@Service
public class EventFeed {

    private final OutboxStore store;

    EventFeed(ReadReplica replica) {
        this.store = new OutboxStore(replica.jdbc());
    }

    public record Page(List<String> envelopes, OutboxStore.FeedPosition last, boolean hasMore) {}

    public Page page(MerchantId merchant, OutboxStore.FeedPosition after, int limit) {
        List<OutboxStore.FeedEntry> rows = store.feed(merchant, after, limit + 1);
        boolean hasMore = rows.size() > limit;
        List<OutboxStore.FeedEntry> page = hasMore ? rows.subList(0, limit) : rows;
        OutboxStore.FeedPosition last = page.isEmpty() ? after : page.getLast().position();
        return new Page(page.stream().map(OutboxStore.FeedEntry::envelope).toList(), last, hasMore);
    }
}
