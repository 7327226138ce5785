package dev.kopek.chaos;

import dev.kopek.chaos.Evidence.Answer;
import dev.kopek.chaos.Evidence.ClientAnswers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Every answer the clients received, per operation and idempotency key, for the replay check; every 2xx with
 * when it was asked and answered, for the check that no acknowledged write is lost and for the write gaps; and
 * the server errors, for their examples.
 */
final class ClientLog {

    /** A 2xx answer to a write, with {@link System#nanoTime()} at its request and at its answer. */
    record Ack(String operation, String key, String body, long sentNanos, long answeredNanos) {}

    private static final int SERVER_ERROR_EXAMPLES = 20;

    private final Map<String, ClientAnswers> byKey = new ConcurrentHashMap<>();
    private final Queue<Ack> acks = new ConcurrentLinkedQueue<>();
    private final Queue<String> serverErrors = new ConcurrentLinkedQueue<>();

    void acknowledged(Ack ack) {
        acks.add(ack);
    }

    List<Ack> acks() {
        return List.copyOf(acks);
    }

    void serverError(String example) {
        if (serverErrors.size() < SERVER_ERROR_EXAMPLES) {
            serverErrors.add(example.length() <= 300 ? example : example.substring(0, 300) + "…");
        }
    }

    List<String> serverErrors() {
        return List.copyOf(serverErrors);
    }

    void record(String operation, String key, Answer answer) {
        ClientAnswers answers =
                byKey.computeIfAbsent(operation + " " + key, k -> new ClientAnswers(operation, key, new ArrayList<>()));
        synchronized (answers) {
            answers.answers().add(answer);
        }
    }

    List<ClientAnswers> all() {
        return byKey.values().stream()
                .map(a -> {
                    synchronized (a) {
                        return new ClientAnswers(a.operation(), a.key(), List.copyOf(a.answers()));
                    }
                })
                .toList();
    }
}
