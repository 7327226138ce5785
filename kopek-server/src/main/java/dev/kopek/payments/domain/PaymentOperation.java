package dev.kopek.payments.domain;

import dev.kopek.money.PaymentId;
import java.time.Instant;
import java.util.UUID;

/** A capture or void of a payment, as stored. */
public record PaymentOperation(UUID id, PaymentId payment, OperationKind kind, long amount, boolean finalCapture,
        OperationStatus status, String providerKey, String pspReference, Instant createdAt) {

    public enum OperationStatus {
        PENDING, UNKNOWN, SUCCEEDED, FAILED;

        public boolean isFinal() {
            return this == SUCCEEDED || this == FAILED;
        }
    }
}
