package dev.kopek.events;

import dev.kopek.money.MerchantId;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A committed state change of one resource, as others will see it.
 *
 * @param type e.g. {@code payment.captured}, {@code refund.failed}
 * @param resourceType {@code payment} or {@code refund}
 * @param resourceId the resource's row id
 * @param publicId the id the API shows ({@code pay_…}, {@code re_…}); the Kafka key and feed id
 * @param sequence strictly increasing per resource (its row version), so a receiver can refuse a regression
 * @param payloadJson the resource's API representation after the change
 */
public record BusinessEvent(
        String type,
        String resourceType,
        UUID resourceId,
        String publicId,
        MerchantId merchant,
        long sequence,
        String payloadJson,
        Instant occurredAt) {

    public BusinessEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(resourceType, "resourceType");
        Objects.requireNonNull(resourceId, "resourceId");
        Objects.requireNonNull(publicId, "publicId");
        Objects.requireNonNull(merchant, "merchant");
        Objects.requireNonNull(payloadJson, "payloadJson");
        Objects.requireNonNull(occurredAt, "occurredAt");
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence must not be negative");
        }
    }
}
