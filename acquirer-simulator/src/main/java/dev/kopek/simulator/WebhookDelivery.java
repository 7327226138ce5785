package dev.kopek.simulator;

import java.time.Instant;

/**
 * One HTTP attempt to deliver a webhook event.
 *
 * @param copy      1, or 2 for the duplicate that {@code webhook_duplicate_rate} (or a resend) adds
 * @param attempt   1 for the first try, up to 4 after three retries
 * @param status    the receiver's HTTP status, or 0 when no response arrived
 * @param error     why no response arrived, else null
 * @param signature the {@code Simulator-Signature} header that was sent
 * @param sentAt    when it was sent, on the simulator clock
 */
public record WebhookDelivery(
        String eventId,
        String type,
        int copy,
        int attempt,
        int status,
        String error,
        String signature,
        Instant sentAt) {

    /** The receiver answered 2xx. */
    public boolean delivered() {
        return status >= 200 && status < 300;
    }
}
