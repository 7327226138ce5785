package dev.kopek.client;

import java.time.Instant;
import java.util.Map;

/**
 * A payment as Kopek shows it. Amounts are integers in minor units of {@code currency} (499000 RUB is 4990.00
 * RUB). {@code status} is one of {@code processing}, {@code authorized}, {@code captured},
 * {@code partially_refunded}, {@code refunded}, {@code voided}, {@code expired}, {@code declined}, {@code failed},
 * {@code disputed}, {@code charged_back}; Kopek may add states, so treat unknown ones as "look again later".
 */
public record Payment(String id, String reference, String status, long amount, String currency,
        long amountAuthorized, long amountCaptured, long amountRefunded, long amountCapturable,
        long amountRefundPending, long amountDisputed, String captureMethod, Instant captureBefore,
        String paymentMethod, String description, Map<String, String> metadata, String pspReference,
        String declineCode, String failureReason, Instant createdAt, Instant updatedAt) {

    /** The PSP's outcome is not known yet: Kopek resolves it by itself; wait, do not pay again. */
    public boolean isProcessing() {
        return "processing".equals(status);
    }
}
