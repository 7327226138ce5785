/**
 * Events others learn from (L9): every {@link dev.kopek.events.BusinessEvent} becomes one outbox row in the
 * transaction that made the change; a relay (polling with {@code FOR UPDATE SKIP LOCKED}, or Debezium CDC)
 * publishes the rows to Kafka after commit; merchants read them from {@code GET /v1/events} and receive them as
 * signed webhooks. The API is {@link EventTypes} and the configuration records; everything else is internal. Signatures are made with the Java client's
 * {@code dev.kopek.client.WebhookSignature}, so merchants verify with the very code that signs.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Outbox and events delivery")
package dev.kopek.outbox;
