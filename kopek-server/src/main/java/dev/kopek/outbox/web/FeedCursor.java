package dev.kopek.outbox.web;

import dev.kopek.outbox.store.OutboxStore.FeedPosition;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Optional;

/** The feed's opaque cursor: a version byte and the position, base64url. Clients only echo it back. */
final class FeedCursor {

    private static final byte VERSION = 1;
    private static final int LENGTH = 1 + 2 * Long.BYTES;
    private static final int MAX_TEXT = 64;

    private FeedCursor() {}

    static String encode(FeedPosition position) {
        ByteBuffer bytes = ByteBuffer.allocate(LENGTH)
                .put(VERSION)
                .putLong(position.txId())
                .putLong(position.logPosition());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
    }

    static Optional<FeedPosition> decode(String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_TEXT) {
            return Optional.empty();
        }
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (raw.length != LENGTH || raw[0] != VERSION) {
            return Optional.empty();
        }
        ByteBuffer bytes = ByteBuffer.wrap(raw, 1, LENGTH - 1);
        long txId = bytes.getLong();
        long logPosition = bytes.getLong();
        return txId < 0 || logPosition < 0 ? Optional.empty() : Optional.of(new FeedPosition(txId, logPosition));
    }
}
