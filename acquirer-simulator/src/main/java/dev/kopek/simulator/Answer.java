package dev.kopek.simulator;

import java.util.Map;

/** What a handler wants the router to do with the exchange: write a reply, or hang up without one. */
sealed interface Answer permits Answer.Reply, Answer.Drop {

    /** Drops the connection with no status line at all, the way a crashed or reset acquirer looks. */
    Drop DROP = new Drop();

    /**
     * A complete HTTP response. The body bytes are stored and replayed as they are, which is what makes
     * a replay byte-identical; nobody mutates them after construction.
     *
     * @param body    JSON bytes; empty for 204
     * @param headers extra headers beyond Content-Type
     */
    record Reply(int status, byte[] body, Map<String, String> headers) implements Answer {
        Reply(int status, byte[] body) {
            this(status, body, Map.of());
        }
    }

    /** Marker for {@link #DROP}. */
    record Drop() implements Answer {}
}
