package dev.kopek.outbox.webhooks;

import dev.kopek.money.PrefixedId;
import dev.kopek.outbox.store.Envelope;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** Endpoints and deliveries as the API shows them; fields always in this order. */
public final class WebhookJson {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private WebhookJson() {}

    /** With {@code secret} only in the answer to the create request. */
    public static String render(Endpoint endpoint, String secret) {
        return render(endpoint, secret, secret != null);
    }

    /**
     * {@code shownOnce}: the create answer's shape. The first answer carries the secret; the stored answer a replay
     * gets carries {@code "secret": null}, and both say {@code "secret_shown_once": true}.
     */
    static String render(Endpoint endpoint, String secret, boolean shownOnce) {
        Map<String, Object> json = fields(endpoint);
        if (shownOnce) {
            json.put("secret", secret);
            json.put("secret_shown_once", true);
        }
        return JSON.writeValueAsString(json);
    }

    public static String renderEndpoints(List<Endpoint> endpoints) {
        return JSON.writeValueAsString(
                list(endpoints.stream().map(e -> fields(e)).toList(), false));
    }

    public static String render(Delivery delivery) {
        return JSON.writeValueAsString(fields(delivery));
    }

    public static String renderDeliveries(List<Delivery> deliveries) {
        return JSON.writeValueAsString(
                list(deliveries.stream().map(WebhookJson::fields).toList(), false));
    }

    private static Map<String, Object> list(List<Map<String, Object>> data, boolean hasMore) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("object", "list");
        json.put("data", data);
        json.put("has_more", hasMore);
        return json;
    }

    private static Map<String, Object> fields(Endpoint e) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", e.publicId());
        json.put("object", "webhook_endpoint");
        json.put("url", e.url());
        json.put("event_types", e.eventTypes());
        json.put("status", e.status().name().toLowerCase(Locale.ROOT));
        json.put("disabled_reason", e.disabledReason());
        json.put("created_at", e.createdAt().toString());
        json.put("updated_at", e.updatedAt().toString());
        return json;
    }

    private static Map<String, Object> fields(Delivery d) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", d.publicId());
        json.put("object", "webhook_delivery");
        json.put("endpoint", PrefixedId.format(Endpoint.PREFIX, d.endpointId()));
        json.put("event", Envelope.eventId(d.eventId()));
        json.put("event_type", d.eventType());
        json.put("status", d.status().name().toLowerCase(Locale.ROOT));
        json.put("attempts", d.attempts());
        json.put("next_attempt_at", d.status() == Delivery.Status.PENDING ? text(d.nextAttemptAt()) : null);
        json.put("last_response_code", d.lastResponseCode());
        json.put("created_at", text(d.createdAt()));
        json.put("updated_at", text(d.updatedAt()));
        if (d.history() != null) {
            json.put(
                    "attempt_history",
                    d.history().stream().map(WebhookJson::fields).toList());
        }
        return json;
    }

    private static Map<String, Object> fields(Delivery.Attempt a) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("attempt", a.attempt());
        json.put("trigger", a.trigger());
        json.put("started_at", text(a.startedAt()));
        json.put("latency_ms", a.latencyMillis());
        json.put("response_code", a.responseCode());
        json.put("outcome", a.succeeded() ? "succeeded" : "failed");
        json.put("error", a.error());
        return json;
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
