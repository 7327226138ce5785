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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Creates, signs and delivers webhook events in the background, each delivery on its own virtual
 * thread. A non-2xx answer or no answer is retried three times with a short backoff, then, if
 * {@code webhook_retry_for_ms} asks, with a backoff doubling up to 5 s until that long after the first attempt
 * (as a real PSP keeps retrying through its merchant's outage). Belongs to one
 * generation of books: a reset closes it, and its pending deliveries stop before their next attempt. It counts the
 * copies still under way, so that a test or a harness can wait until every event was delivered or given up.
 */
final class WebhookSender {
    private static final long[] RETRY_BACKOFF_MILLIS = {50, 100, 200};
    private static final long MAX_BACKOFF_MILLIS = 5_000;

    /** One copy of an event to deliver with the settings that were current when it was created. */
    private record Job(WebhookEvent event, WebhookSettings settings, int copy) {}

    private final Executor executor;
    private final WebhookTransport transport;
    private final Supplier<Instant> clock;
    private final ConcurrentLinkedQueue<WebhookEvent> events = new ConcurrentLinkedQueue<>();
    private final Map<String, WebhookEvent> eventsById = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<WebhookDelivery> deliveries = new ConcurrentLinkedQueue<>();
    private final List<Job> held = new ArrayList<>();
    /** Copies dispatched and not yet delivered, given up or dropped. */
    private final AtomicInteger underWay = new AtomicInteger();

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
        underWay.incrementAndGet();
        if (job.settings().reorder()) {
            hold(job);
        } else {
            executor.execute(() -> {
                try {
                    Pauses.uniform(0, job.settings().delayMillis());
                    deliver(job);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    underWay.decrementAndGet();
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

    /** Sends every held event now, in shuffled order, one after the other; retries go on beside the batch. */
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
            int left = batch.size();
            try {
                for (Job job : batch) {
                    // First tries go one after the other, in the shuffled order; a refused one retries on its own
                    // thread, so that one receiver's outage does not hold the rest of the batch back.
                    long giveUpAt = giveUpAt(job);
                    left--;
                    if (!closed && !attempt(job, 1)) {
                        executor.execute(() -> retryQuietly(job, giveUpAt));
                    } else {
                        underWay.decrementAndGet();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                underWay.addAndGet(-left - 1);
            }
        });
    }

    private void deliver(Job job) throws InterruptedException {
        long giveUpAt = giveUpAt(job);
        if (!attempt(job, 1)) {
            retry(job, giveUpAt);
        }
    }

    private static long giveUpAt(Job job) {
        return System.nanoTime() + job.settings().retryForMillis() * 1_000_000;
    }

    private void retryQuietly(Job job, long giveUpAt) {
        try {
            retry(job, giveUpAt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            underWay.decrementAndGet();
        }
    }

    private void retry(Job job, long giveUpAt) throws InterruptedException {
        for (int attempt = 2; !closed; attempt++) {
            if (!pause(attempt - 1, giveUpAt) || closed || attempt(job, attempt)) {
                return;
            }
        }
    }

    /** Waits before the next try after {@code failed} tries; false when the retries are over. */
    private static boolean pause(int failed, long giveUpAt) throws InterruptedException {
        long backoff;
        if (failed <= RETRY_BACKOFF_MILLIS.length) {
            backoff = RETRY_BACKOFF_MILLIS[failed - 1];
        } else {
            int doublings = Math.min(failed - RETRY_BACKOFF_MILLIS.length, 10);
            backoff = Math.min(MAX_BACKOFF_MILLIS, RETRY_BACKOFF_MILLIS[RETRY_BACKOFF_MILLIS.length - 1] << doublings);
            if (System.nanoTime() + backoff * 1_000_000 - giveUpAt > 0) {
                return false;
            }
        }
        Thread.sleep(backoff);
        return true;
    }

    /** One try, recorded; true when the receiver took it (2xx). */
    private boolean attempt(Job job, int attempt) throws InterruptedException {
        WebhookEvent event = job.event();
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
        return delivery.delivered();
    }

    List<WebhookEvent> events() {
        return List.copyOf(events);
    }

    List<WebhookDelivery> deliveries() {
        return List.copyOf(deliveries);
    }

    /** Copies held for a batch, waiting before a first try or between retries: 0 when every event was settled. */
    int underWay() {
        return underWay.get();
    }

    /** Stops sending: held events are dropped and pending deliveries end before their next attempt. */
    void close() {
        closed = true;
        synchronized (held) {
            underWay.addAndGet(-held.size());
            held.clear();
        }
    }
}
