/**
 * Client idempotency keys: the claim ({@code INSERT … ON CONFLICT DO NOTHING}), leases, the fencing token
 * (attempt number), stored final responses and their retention. Each operation has its own key space.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Idempotency")
package dev.kopek.idempotency;
