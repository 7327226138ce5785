package dev.kopek.client;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * For a merchant's webhook receiver: verify the {@code Kopek-Signature} over the raw body bytes, then read the
 * event. After this, deduplicate by {@link Event#id()} and ignore a {@code resource.sequence} older than the
 * last one applied.
 */
public final class Webhooks {

    private Webhooks() {}

    /** Thrown for a body that must not be trusted; answer the delivery with a 400. */
    public static final class VerificationFailed extends KopekException {

        private static final long serialVersionUID = 1L;

        private final WebhookSignature.Verdict verdict;

        VerificationFailed(WebhookSignature.Verdict verdict) {
            super("webhook signature refused: " + verdict, null);
            this.verdict = verdict;
        }

        public WebhookSignature.Verdict verdict() {
            return verdict;
        }
    }

    /**
     * Checks the signature with any of {@code secrets} (several during a rotation) and returns the event.
     *
     * @throws VerificationFailed when no secret verifies it, or it is older than five minutes
     */
    public static Event receive(List<String> secrets, String signatureHeader, byte[] rawBody, Instant now) {
        WebhookSignature.Verdict worst = WebhookSignature.Verdict.MALFORMED;
        for (String secret : secrets) {
            WebhookSignature.Verdict verdict = WebhookSignature.verify(secret, signatureHeader, rawBody, now);
            if (verdict.valid()) {
                return KopekClient.read(new String(rawBody, StandardCharsets.UTF_8), Event.class);
            }
            worst = verdict;
        }
        throw new VerificationFailed(worst);
    }
}
