package dev.kopek.outbox;

import java.util.Set;
import java.util.TreeSet;

/**
 * The one catalogue of event types: exactly the types the code emits, and the types a webhook endpoint may
 * subscribe to. {@code EventCatalogueTest} derives the emitted set from the state machines (every status of a
 * payment, refund, capture and void is announced when it is entered) and fails when this list differs; the API page
 * (docs/api.md) and the OpenAPI document list the same types.
 */
public final class EventTypes {

    public static final String ALL = "*";
    public static final String ENDPOINT_DISABLED = "webhook_endpoint.disabled";

    private static final Set<String> KNOWN = Set.of(
            "payment.created",
            "payment.unknown",
            "payment.requires_action",
            "payment.authorized",
            "payment.captured",
            "payment.declined",
            "payment.failed",
            "payment.voided",
            "payment.expired",
            "payment.authorization_closed",
            "payment.partially_refunded",
            "payment.refunded",
            "payment.disputed",
            "payment.charged_back",
            "capture.pending",
            "capture.unknown",
            "capture.succeeded",
            "capture.failed",
            "void.pending",
            "void.unknown",
            "void.succeeded",
            "void.failed",
            "refund.pending",
            "refund.unknown",
            "refund.succeeded",
            "refund.failed",
            "dispute.opened",
            "dispute.won",
            "dispute.lost",
            "dispute.inquiry_opened",
            "dispute.inquiry_closed",
            ENDPOINT_DISABLED);

    private EventTypes() {}

    public static boolean isKnown(String type) {
        return KNOWN.contains(type);
    }

    public static Set<String> known() {
        return new TreeSet<>(KNOWN);
    }
}
