package dev.kopek.outbox;

import java.util.Set;
import java.util.TreeSet;

/**
 * The event types a webhook endpoint may subscribe to. A module that starts publishing a new type adds it here;
 * an event of a type missing from this list is still recorded, published and sent to {@code "*"} endpoints.
 */
public final class EventTypes {

    public static final String ALL = "*";
    public static final String ENDPOINT_DISABLED = "webhook_endpoint.disabled";

    private static final Set<String> KNOWN = Set.of(
            "payment.created", "payment.unknown", "payment.authorized", "payment.captured",
            "payment.partially_captured", "payment.declined", "payment.failed", "payment.voided",
            "payment.partially_refunded", "payment.refunded", "payment.chargeback",
            "refund.pending", "refund.succeeded", "refund.failed",
            "dispute.created", "dispute.won", "dispute.lost",
            ENDPOINT_DISABLED);

    private EventTypes() {
    }

    public static boolean isKnown(String type) {
        return KNOWN.contains(type);
    }

    public static Set<String> known() {
        return new TreeSet<>(KNOWN);
    }
}
