package dev.kopek.simulator;

/**
 * A validated request body as the idempotency check compares it. Implementations are records, so two
 * requests are "the same request" exactly when their records are equal.
 */
interface Fingerprint {}
