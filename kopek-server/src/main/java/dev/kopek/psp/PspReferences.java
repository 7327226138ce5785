package dev.kopek.psp;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a PSP named its object for a provider key (a Stripe PaymentIntent id) when the outcome stayed unknown, kept
 * so that a lookup — after a restart, or on another instance — asks for that object by id instead of through a
 * search that may not have caught up yet.
 */
public interface PspReferences {

    Optional<String> find(String providerKey);

    /** The first reference learned for a key stays: a key names one object at the PSP. */
    void remember(String provider, String providerKey, String pspReference);

    /** Within one process only: for adapters tested without a database. */
    static PspReferences inMemory() {
        Map<String, String> known = new ConcurrentHashMap<>();
        return new PspReferences() {
            @Override
            public Optional<String> find(String providerKey) {
                return Optional.ofNullable(known.get(providerKey));
            }

            @Override
            public void remember(String provider, String providerKey, String pspReference) {
                known.putIfAbsent(providerKey, pspReference);
            }
        };
    }
}
