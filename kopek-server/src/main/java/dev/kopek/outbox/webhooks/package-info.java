/**
 * Merchant webhook endpoints and their deliveries: signed, retried with backoff, disabled after failing for the
 * retry window. {@link dev.kopek.outbox.webhooks.WebhookEndpoints} is the service the merchant API and the
 * operator console both use.
 */
@org.springframework.modulith.NamedInterface("webhooks")
package dev.kopek.outbox.webhooks;
