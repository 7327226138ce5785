package dev.kopek.psp;

import java.time.Duration;

/**
 * What an adapter's provider promises about idempotency keys, declared rather than assumed (docs/design.md, "The PSP
 * port and the simulator").
 *
 * @param keyWindow how long the provider remembers a key; past it a repeat would charge again (L6)
 * @param scope what a key is unique within
 * @param concurrentDuplicate what a repeat returns while the first request still runs
 * @param lookupByKey whether a status lookup by key exists
 */
public record IdempotencyContract(Duration keyWindow, String scope, String concurrentDuplicate, boolean lookupByKey) {}
