package dev.kopek.simulator;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Creates, signs and delivers webhook events in the background, each delivery on its own virtual
 * thread. A non-2xx answer or no answer is retried three times with a short backoff. Belongs to one
 * generation of books: a reset closes it, and its pending deliveries stop before their next attempt.
 */
final class WebhookSender {
    private static final long[] RETRY_BACKOFF_MILLIS = {50, 100, 200};

    /** One copy of an event to deliver with the settings that were current when it was created. */
    private record Job(WebhookEvent event, WebhookSettings settings, int copy) {}

    private final Executor executor;
    private final WebhookTransport transport;
    private final Supplier<Instant> clock;
    private final ConcurrentLinkedQueue<WebhookEvent> events = new ConcurrentLinkedQueue<>();
    private final Map<String, WebhookEvent> eventsById = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<WebhookDelivery> deliveries = new ConcurrentLinkedQueue<>();
    private final List<Job> held = new ArrayList<>();
    private volatile boolean closed;

    WebhookSender(Executor executor, WebhookTransport transport, Supplier<Instant> clock) {
        this.executor = executor;
        this.transport = transport;
        this.clock = clock;
    }

    /**
     * Creates and sends an event when webhooks are on; returns null when they are off.
     *
     * @param data the object the event is about; it is serialised now and must not change afterwards
     */
    WebhookEvent publish(String type, ObjectNode data, WebhookSettings settings) {
        if (settings.url() == null || closed) {
            return null;
        }
        Instant now = clock.get();
        String id = Ids.next("evt_");
        ObjectNode root = Json.object().put("id", id).put("type", type).put("created", now.getEpochSecond());
        root.set("data", data);
        WebhookEvent event = new WebhookEvent(id, type, chargeIdOf(data), now, Json.string(root));
        events.add(event);
        eventsById.put(id, event);
        int copies = ThreadLocalRandom.current().nextDouble() < settings.duplicateRate() ? 2 : 1;
        for (int copy = 1; copy <= copies; copy++) {
            dispatch(new Job(event, settings, copy));
        }
        return event;
    }

    /** Delivers an existing event once more, as a second copy with the same id and payload. */
    void resend(String eventId, WebhookSettings settings) {
        WebhookEvent event = eventsById.get(eventId);
        if (event == null) {
            throw ApiRefusal.notFound("event_not_found");
        }
        if (settings.url() == null) {
            throw ApiRefusal.conflict("webhooks_off");
        }
        dispatch(new Job(event, settings, 2));
    }

    /** The charge an event is about: data.charge_id, or data.id when the data is a charge. */
    private static String chargeIdOf(ObjectNode data) {
        JsonNode chargeId = data.get("charge_id");
        if (chargeId != null && chargeId.isString()) {
            return chargeId.stringValue();
        }
        JsonNode id = data.get("id");
        return id != null && id.isString() && id.stringValue().startsWith("ch_") ? id.stringValue() : null;
    }

    private void dispatch(Job job) {
        if (job.settings().reorder()) {
            hold(job);
        } else {
            executor.execute(() -> {
                try {
                    Pauses.uniform(0, job.settings().delayMillis());
                    deliver(job);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
    }

    /** Reordering: the first held event opens a batch window of webhook_delay_ms; then the batch goes out. */
    private void hold(Job job) {
        boolean first;
        synchronized (held) {
            first = held.isEmpty();
            held.add(job);
        }
        if (first) {
            executor.execute(() -> {
                try {
                    Thread.sleep(job.settings().delayMillis());
                    flush();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
    }

    /** Sends every held event now, in shuffled order, one after the other. */
    void flush() {
        List<Job> batch;
        synchronized (held) {
            batch = new ArrayList<>(held);
            held.clear();
        }
        if (batch.isEmpty()) {
            return;
        }
        Collections.shuffle(batch, ThreadLocalRandom.current());
        executor.execute(() -> {
            try {
                for (Job job : batch) {
                    deliver(job);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private void deliver(Job job) throws InterruptedException {
        WebhookEvent event = job.event();
        for (int attempt = 1; attempt <= RETRY_BACKOFF_MILLIS.length + 1 && !closed; attempt++) {
            Instant now = clock.get();
            String signature = WebhookSignature.header(job.settings().secret(), now.getEpochSecond(), event.payload());
            int status = 0;
            String error = null;
            try {
                status = transport.post(job.settings().url(), event.payload(), signature);
            } catch (IOException e) {
                error = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            }
            WebhookDelivery delivery =
                    new WebhookDelivery(event.id(), event.type(), job.copy(), attempt, status, error, signature, now);
            deliveries.add(delivery);
            if (delivery.delivered() || attempt > RETRY_BACKOFF_MILLIS.length) {
                return;
            }
            Thread.sleep(RETRY_BACKOFF_MILLIS[attempt - 1]);
        }
    }

    List<WebhookEvent> events() {
        return List.copyOf(events);
    }

    List<WebhookDelivery> deliveries() {
        return List.copyOf(deliveries);
    }

    /** Stops sending: held events are dropped and pending deliveries end before their next attempt. */
    void close() {
        closed = true;
        synchronized (held) {
            held.clear();
        }
    }
}
