package dev.kopek.outbox.store;

import dev.kopek.money.MerchantId;
import java.util.List;
import org.springframework.stereotype.Service;

/** The merchant's event feed: their events only (L11), in a stable order, one page at a time. */
@Service
public class EventFeed {

    private final OutboxStore store;

    EventFeed(OutboxStore store) {
        this.store = store;
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
