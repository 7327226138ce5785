package dev.kopek.outbox.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.outbox.store.OutboxStore.FeedPosition;
import org.junit.jupiter.api.Test;

class FeedCursorTest {

    @Test
    void aCursorRoundTripsAndGarbageIsRefused() {
        FeedPosition position = new FeedPosition(123_456_789L, 42L);
        String cursor = FeedCursor.encode(position);
        assertThat(cursor).matches("[A-Za-z0-9_-]+");
        assertThat(FeedCursor.decode(cursor)).contains(position);
        assertThat(FeedCursor.decode("")).isEmpty();
        assertThat(FeedCursor.decode("%%%")).isEmpty();
        assertThat(FeedCursor.decode(cursor.substring(1))).isEmpty();
        assertThat(FeedCursor.decode("A".repeat(65))).isEmpty();
    }
}
