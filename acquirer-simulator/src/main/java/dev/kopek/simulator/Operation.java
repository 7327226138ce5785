package dev.kopek.simulator;

import java.util.Arrays;

/**
 * The state-changing acquirer operations. Each has its own key scope: the same key string used for a
 * capture and for a refund names two different requests.
 */
enum Operation {
    CHARGE("charge"),
    CAPTURE("capture"),
    VOID("void"),
    REFUND("refund");

    private final String wireName;

    Operation(String wireName) {
        this.wireName = wireName;
    }

    String wireName() {
        return wireName;
    }

    /** By wire name; throws IllegalArgumentException for anything else. */
    static Operation of(String name) {
        return Arrays.stream(values())
                .filter(op -> op.wireName.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown operation " + name + " (charge, capture, void or refund)"));
    }
}
