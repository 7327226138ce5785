package dev.kopek.outbox.store;

import dev.kopek.events.BusinessEvent;
import dev.kopek.money.PrefixedId;
import java.util.UUID;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The event as everyone receives it, rendered once when it is recorded: Kafka, the feed and webhooks carry the
 * same bytes, so a signature or a dedupe by id never depends on who sent the copy.
 *
 * <pre>{"id":"evt_…","object":"event","type":"payment.captured","created_at":"…","merchant":"mer_…",
 *  "resource":{"type":"payment","id":"pay_…","sequence":1},"data":{…the resource after the change…}}</pre>
 */
public final class Envelope {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PREFIX = "evt";

    private Envelope() {}

    public static String render(UUID eventId, BusinessEvent event) {
        ObjectNode root = JSON.createObjectNode();
        root.put("id", eventId(eventId));
        root.put("object", "event");
        root.put("type", event.type());
        root.put("created_at", event.occurredAt().toString());
        root.put("merchant", event.merchant().toString());
        ObjectNode resource = root.putObject("resource");
        resource.put("type", event.resourceType());
        resource.put("id", event.publicId());
        resource.put("sequence", event.sequence());
        // The payload is already JSON, rendered once for the answer: splice it in as it is rather than parse it
        // and write it again (the same bytes: both are Jackson's compact output of the same fields).
        String head = JSON.writeValueAsString(root);
        String payload = event.payloadJson();
        return new StringBuilder(head.length() + payload.length() + 9)
                .append(head, 0, head.length() - 1)
                .append(",\"data\":")
                .append(payload)
                .append('}')
                .toString();
    }

    public static String eventId(UUID id) {
        return PrefixedId.format(PREFIX, id);
    }
}
