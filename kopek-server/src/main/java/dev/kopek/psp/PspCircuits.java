package dev.kopek.psp;

import dev.kopek.money.MerchantId;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One circuit per PSP account, not one per PSP: Kopek's configured account at its PSP has one, and every merchant on
 * its own account at a PSP has its own. What a circuit counts is partly the account's, not the PSP's: Stripe
 * rate-limits per account (429) and locks per object (lock_timeout), so a merchant bursting on its own account
 * must not refuse the payments of every other merchant at Stripe, nor those of Kopek's configured Stripe account.
 * A PSP-wide outage opens each account's circuit after that account's own window of failures.
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

    /** The circuit of Kopek's configured account at {@code provider}. */
    public PspCircuit of(String provider) {
        return of(provider, PspCircuit.CONFIGURED);
    }

    /** The circuit of {@code merchant}'s own account at {@code provider}, kept across credential rotations. */
    public PspCircuit of(String provider, MerchantId merchant) {
        return of(provider, merchant.toString());
    }

    private PspCircuit of(String provider, String account) {
        return circuits.computeIfAbsent(
                PspCircuit.nameOf(provider, account),
                name -> new PspCircuit(provider, account, properties, meters, clock));
    }

    /** Every circuit made so far, by name ({@code simulator}, {@code stripe}, {@code stripe:mer_…}). */
    public Map<String, String> states() {
        Map<String, String> states = new TreeMap<>();
        circuits.forEach((name, circuit) -> states.put(name, circuit.state()));
        return states;
    }
}
