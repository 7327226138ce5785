package dev.kopek.chaos;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Named counters of one run (operations, requests, retries, faults by kind, kills). */
final class Figures {

    private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();

    void add(String name) {
        add(name, 1);
    }

    void add(String name, long n) {
        counters.computeIfAbsent(name, k -> new LongAdder()).add(n);
    }

    long get(String name) {
        LongAdder adder = counters.get(name);
        return adder == null ? 0 : adder.sum();
    }

    /** The counters whose names start with a prefix, sorted, without it: {@code fault_} → {@code {slow=3, …}}. */
    Map<String, Long> withPrefix(String prefix) {
        Map<String, Long> out = new TreeMap<>();
        counters.forEach((name, value) -> {
            if (name.startsWith(prefix)) {
                out.put(name.substring(prefix.length()), value.sum());
            }
        });
        return out;
    }
}
