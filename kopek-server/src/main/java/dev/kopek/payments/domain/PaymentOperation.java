package dev.kopek.payments.domain;

import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

/**
 * A capture or void of a payment, as stored. {@code version} is its event sequence: it changes only with the
 * status.
 */
public record PaymentOperation(UUID id, PaymentId payment, MerchantId merchant, OperationKind kind, long amount,
        boolean finalCapture, OperationStatus status, int version, String providerKey, String pspReference,
        String failureReason, Instant createdAt, Instant updatedAt) {

    public enum OperationStatus {
        PENDING, UNKNOWN, SUCCEEDED, FAILED;

        public String apiName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The event type of this operation's current state: {@code capture.succeeded}, {@code void.unknown}, … */
    public String eventType() {
        return kind.apiName() + "." + status.apiName();
    }
}
