package dev.kopek.psp;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One circuit per PSP (not per merchant): every merchant on Stripe shares Stripe's, because what it counts —
 * timeouts, 5xx, 429 — is the PSP failing, not a merchant's account (a bad secret key is a refusal: the PSP
 * working).
 */
public final class PspCircuits {

    private final Map<String, PspCircuit> circuits = new ConcurrentHashMap<>();
    private final PspCircuitProperties properties;
    private final MeterRegistry meters;
    private final Clock clock;

    public PspCircuits(PspCircuitProperties properties, MeterRegistry meters, Clock clock) {
        this.properties = properties;
        this.meters = meters;
        this.clock = clock;
    }

    public PspCircuit of(String provider) {
        return circuits.computeIfAbsent(provider, name -> new PspCircuit(name, properties, meters, clock));
    }

    /** Every circuit made so far, by PSP name. */
    public Map<String, String> states() {
        Map<String, String> states = new TreeMap<>();
        circuits.forEach((name, circuit) -> states.put(name, circuit.state()));
        return states;
    }
}
