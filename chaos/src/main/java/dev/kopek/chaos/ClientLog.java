package dev.kopek.chaos;

import dev.kopek.chaos.Evidence.Answer;
import dev.kopek.chaos.Evidence.ClientAnswers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Every answer the clients received, per operation and idempotency key, for the replay check. */
final class ClientLog {

    private final Map<String, ClientAnswers> byKey = new ConcurrentHashMap<>();

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
