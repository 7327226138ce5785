package dev.kopek.simulator;

import java.time.Instant;

/**
 * A webhook event the simulator created (only while a webhook URL is configured).
 *
 * @param chargeId the charge it is about, or null (a manual event whose data names no charge)
 * @param created  when it was created on the simulator clock; {@code created} in the payload is its epoch second
 * @param payload  the exact JSON body every delivery of it sends
 */
public record WebhookEvent(String id, String type, String chargeId, Instant created, String payload) {}
