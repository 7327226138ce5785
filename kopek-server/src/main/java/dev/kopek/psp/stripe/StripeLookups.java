package dev.kopek.psp.stripe;

import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.LookupResult;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import tools.jackson.databind.JsonNode;

/**
 * What a retrieved PaymentIntent or refund list says about an operation whose answer was lost. Retrieval by id and
 * lists are read-after-write consistent at Stripe; search is not, so an empty search result is inconclusive, never
 * "no charge" (Stripe: search data may lag by a minute, longer during an outage).
 */
final class StripeLookups {

    private StripeLookups() {}

    /** A search for the provider key Kopek put in the metadata; quotes and backslashes escaped. */
    static String metadataQuery(String providerKey) {
        String escaped = providerKey.replace("\\", "\\\\").replace("'", "\\'");
        return "metadata['" + StripeNotifications.KEY_FIELD + "']:'" + escaped + "'";
    }

    static LookupResult searched(JsonNode result) {
        JsonNode data = result.path("data");
        if (!data.isArray()) {
            return new LookupResult.Inconclusive("search answered without data");
        }
        if (data.isEmpty()) {
            return new LookupResult.Inconclusive("not found yet: Stripe's search is eventually consistent");
        }
        if (data.size() > 1) {
            return new LookupResult.Inconclusive("more than one PaymentIntent carries the key: a person decides");
        }
        return charge(data.get(0));
    }

    /** A charge's PaymentIntent: final states are found; one still waiting (action, processing) is not yet. */
    static LookupResult charge(JsonNode pi) {
        ChargeOutcome outcome = StripeResponses.fromIntent(pi, StripeResponses.Expect.CHARGE);
        return outcome instanceof ChargeOutcome.Unknown unknown
                ? new LookupResult.Inconclusive(unknown.reason())
                : new LookupResult.Found(outcome);
    }

    /**
     * The metadata key a capture writes onto its PaymentIntent in the capture request itself (Stripe's limit for a key
     * is 40 characters): the capture's own identity. A PaymentIntent may be captured several times (multicapture), so
     * what it received in all says nothing about one capture.
     */
    static String captureMark(String providerKey) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(providerKey.getBytes(StandardCharsets.UTF_8));
            return "kopek_cap_" + HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    /**
     * A capture under a key, decided by its own mark: present, the capture happened. Absent, it did not, as long as the
     * PaymentIntent is still capturable (the mark comes with the capture, atomically) or canceled (it never can); a
     * PaymentIntent captured to the end without this mark was captured by another request (or, across the release
     * that brought the mark, by this one unmarked), which only a person can tell.
     */
    static LookupResult capture(JsonNode pi, String providerKey) {
        String id = StripeResponses.text(pi, "id");
        if (StripeResponses.text(pi.path("metadata"), captureMark(providerKey)) != null) {
            return new LookupResult.Found(new ChargeOutcome.Succeeded(id));
        }
        String status = String.valueOf(StripeResponses.text(pi, "status"));
        return switch (status) {
            case "requires_capture" -> new LookupResult.NotFound();
            case "canceled" -> new LookupResult.Found(new ChargeOutcome.Failed("the PaymentIntent is canceled"));
            case "succeeded" ->
                new LookupResult.Inconclusive("the PaymentIntent was captured, but not under this capture's mark");
            default -> new LookupResult.Inconclusive("the PaymentIntent is " + status);
        };
    }

    static LookupResult cancel(JsonNode pi) {
        String id = StripeResponses.text(pi, "id");
        String status = String.valueOf(StripeResponses.text(pi, "status"));
        return switch (status) {
            case "canceled" -> new LookupResult.Found(new ChargeOutcome.Succeeded(id));
            case "requires_capture" -> new LookupResult.NotFound();
            case "succeeded" -> new LookupResult.Found(new ChargeOutcome.Failed("the PaymentIntent was captured"));
            default -> new LookupResult.Inconclusive("the PaymentIntent is " + status);
        };
    }

    /** The refund carrying the key in a PaymentIntent's refund list (newest first, at most 100). */
    static LookupResult refund(JsonNode list, String providerKey) {
        JsonNode data = list.path("data");
        if (!data.isArray()) {
            return new LookupResult.Inconclusive("refund list answered without data");
        }
        for (JsonNode refund : data) {
            if (providerKey.equals(StripeResponses.text(refund.path("metadata"), StripeNotifications.KEY_FIELD))) {
                ChargeOutcome outcome = StripeResponses.fromRefund(refund);
                return outcome instanceof ChargeOutcome.Unknown unknown
                        ? new LookupResult.Inconclusive(unknown.reason())
                        : new LookupResult.Found(outcome);
            }
        }
        return list.path("has_more").asBoolean(false)
                ? new LookupResult.Inconclusive("more than 100 refunds on the PaymentIntent")
                : new LookupResult.NotFound();
    }
}
