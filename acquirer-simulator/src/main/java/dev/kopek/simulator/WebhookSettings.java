package dev.kopek.simulator;

import java.net.URI;
import java.util.Objects;

/**
 * Where and how the simulator sends signed webhooks. Immutable, part of {@link SimulatorConfig}.
 *
 * @param url           where events are POSTed; {@code null} switches webhooks off (no events are kept)
 * @param secret        the HMAC-SHA256 key of the {@code Simulator-Signature} header
 * @param duplicateRate probability in 0..1 that an event is delivered twice
 * @param delayMillis   maximum extra random delay before an event is sent; also how long a
 *                      {@code pm_webhook_only} charge stays processing
 * @param reorder       hold events and send them in shuffled batches instead of one by one
 * @param retryForMillis after the three quick retries, keep retrying (backoff doubling up to 5 s) until this long
 *                      after the first attempt; 0 stops after the three. A real PSP retries for hours or days
 *                      (Stripe: three days), longer than any failover of its merchant's database
 */
public record WebhookSettings(
        URI url, String secret, double duplicateRate, long delayMillis, boolean reorder, long retryForMillis) {

    private static final WebhookSettings DEFAULTS = new WebhookSettings(null, "whsec_simulator", 0, 0, false, 0);

    public WebhookSettings {
        if (url != null
                && (!url.isAbsolute()
                        || url.getHost() == null
                        || !("http".equals(url.getScheme()) || "https".equals(url.getScheme())))) {
            throw new IllegalArgumentException("webhook_url must be an absolute http or https URL");
        }
        Objects.requireNonNull(secret, "webhook_secret");
        if (secret.isEmpty()) {
            throw new IllegalArgumentException("webhook_secret must not be empty");
        }
        if (!(duplicateRate >= 0.0 && duplicateRate <= 1.0)) {
            throw new IllegalArgumentException("webhook_duplicate_rate must be between 0 and 1");
        }
        if (delayMillis < 0) {
            throw new IllegalArgumentException("webhook_delay_ms must not be negative");
        }
        if (retryForMillis < 0 || retryForMillis > MAX_RETRY_FOR_MILLIS) {
            throw new IllegalArgumentException("webhook_retry_for_ms must be 0.." + MAX_RETRY_FOR_MILLIS);
        }
    }

    /** A day: longer than any run, short enough that a mistyped value does not keep threads for ever. */
    static final long MAX_RETRY_FOR_MILLIS = 86_400_000;

    /** Off (no URL), secret {@code whsec_simulator}, no duplicates, no delay, no reordering. */
    public static WebhookSettings defaults() {
        return DEFAULTS;
    }

    public WebhookSettings withUrl(URI newUrl) {
        return new WebhookSettings(newUrl, secret, duplicateRate, delayMillis, reorder, retryForMillis);
    }

    public WebhookSettings withSecret(String newSecret) {
        return new WebhookSettings(url, newSecret, duplicateRate, delayMillis, reorder, retryForMillis);
    }

    public WebhookSettings withDuplicateRate(double rate) {
        return new WebhookSettings(url, secret, rate, delayMillis, reorder, retryForMillis);
    }

    public WebhookSettings withDelayMillis(long millis) {
        return new WebhookSettings(url, secret, duplicateRate, millis, reorder, retryForMillis);
    }

    public WebhookSettings withReorder(boolean newReorder) {
        return new WebhookSettings(url, secret, duplicateRate, delayMillis, newReorder, retryForMillis);
    }

    public WebhookSettings withRetryForMillis(long millis) {
        return new WebhookSettings(url, secret, duplicateRate, delayMillis, reorder, millis);
    }
}
