package dev.kopek.simulator;

import java.util.function.Supplier;

/** What the work of a fresh, key-owning request came to. */
sealed interface Outcome {

    /** Nothing happened: the key is released and this reply goes out as it is. */
    record Released(Answer.Reply reply) implements Outcome {}

    /**
     * A result to store under the key and then deliver.
     *
     * @param lookupBody what a later lookup by key answers with 200
     * @param delivery   how the stored result reaches the client (normally, late, as a 500, or not at all)
     * @param afterStore runs once the key is finished, before the response is delivered (webhooks): a
     *                   receiver that looks the key up on notification finds the stored result
     */
    record Stored(Answer.Reply result, Supplier<byte[]> lookupBody, Delivery delivery, Runnable afterStore)
            implements Outcome {

        Stored(Answer.Reply result, Delivery delivery, Runnable afterStore) {
            this(result, result::body, delivery, afterStore);
        }
    }
}
