package dev.kopek.client;

import java.time.Instant;
import java.util.Map;

/**
 * A payment as Kopek shows it. Amounts are integers in minor units of {@code currency} (499000 RUB is 4990.00
 * RUB). {@code status} is one of {@code processing}, {@code requires_action}, {@code authorized}, {@code captured},
 * {@code partially_refunded}, {@code refunded}, {@code voided}, {@code expired}, {@code declined}, {@code failed},
 * {@code disputed}, {@code charged_back}; Kopek may add states, so treat unknown ones as "look again later".
 * {@code processing} and {@code requires_action} are not final: the first resolves by itself, the second waits for the
 * customer ({@code nextAction}, set only then).
 */
public record Payment(
        String id,
        String reference,
        String status,
        long amount,
        String currency,
        long amountAuthorized,
        long amountCaptured,
        long amountRefunded,
        long amountCapturable,
        long amountRefundPending,
        long amountDisputed,
        String captureMethod,
        Instant captureBefore,
        String paymentMethod,
        String description,
        Map<String, String> metadata,
        String pspReference,
        String declineCode,
        String failureReason,
        Instant createdAt,
        Instant updatedAt,
        NextAction nextAction) {

    /** The PSP's outcome is not known yet: Kopek resolves it by itself; wait, do not pay again. */
    public boolean isProcessing() {
        return "processing".equals(status);
    }

    /**
     * The PSP waits for the customer (3-D Secure): send them to {@link #nextAction()}; the payment stays live (do not
     * pay again), and the PSP's answer settles it.
     */
    public boolean requiresAction() {
        return "requires_action".equals(status);
    }
}
