package dev.kopek.support;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A PSP circuit that a test can open with a handful of calls: a window of four, opened when half of them failed,
 * kept open ten minutes (so only a test that moves the clock or waits sees it half-open), two trial calls.
 */
public final class SmallCircuit {

    private SmallCircuit() {}

    public static void register(DynamicPropertyRegistry registry) {
        registry.add("kopek.psp.circuit.window-calls", () -> "4");
        registry.add("kopek.psp.circuit.minimum-calls", () -> "4");
        registry.add("kopek.psp.circuit.failure-rate-percent", () -> "50");
        registry.add("kopek.psp.circuit.wait-in-open", () -> "10m");
        registry.add("kopek.psp.circuit.half-open-calls", () -> "2");
    }
}
