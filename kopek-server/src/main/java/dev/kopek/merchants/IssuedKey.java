package dev.kopek.merchants;

import java.time.Instant;
import java.util.UUID;

/** A freshly issued API key. The secret exists only in this value and in the one response that shows it. */
public record IssuedKey(UUID id, String secret, String prefix, Instant createdAt) {
    @Override
    public String toString() {
        return "IssuedKey[id=" + id + ", prefix=" + prefix + "]";
    }
}
