package dev.kopek.psp.stripe;

import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.LookupResult;
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
     * A capture under a key: the PaymentIntent captured ({@code succeeded}, or capturable again after a non-final
     * multicapture with money received) is found; still capturable with nothing received means the capture never
     * happened.
     */
    static LookupResult capture(JsonNode pi) {
        String id = StripeResponses.text(pi, "id");
        String status = String.valueOf(StripeResponses.text(pi, "status"));
        long received = pi.path("amount_received").asLong(0);
        return switch (status) {
            case "succeeded" -> new LookupResult.Found(new ChargeOutcome.Succeeded(id));
            case "requires_capture" ->
                received > 0 ? new LookupResult.Found(new ChargeOutcome.Succeeded(id)) : new LookupResult.NotFound();
            case "canceled" -> new LookupResult.Found(new ChargeOutcome.Failed("the PaymentIntent is canceled"));
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
