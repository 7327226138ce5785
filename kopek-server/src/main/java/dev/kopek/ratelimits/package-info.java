/**
 * Per-merchant rate limits, checked before the idempotency layer (issue 9, section 6): a token bucket per merchant
 * and kind of request (writes, reads) and a global one, kept in PostgreSQL so they hold across instances. A refused
 * request is answered 429 {@code rate_limited} with {@code Retry-After} before its handler runs, so it claims no
 * idempotency key and stores nothing. Admins set a merchant's limits; defaults come from {@code KOPEK_RATE_LIMIT_*}.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Rate limits")
package dev.kopek.ratelimits;
