package dev.kopek.simulation;

import dev.kopek.simulator.AcquirerSimulator;
import dev.kopek.simulator.WebhookEvent;
import dev.kopek.simulator.WebhookSignature;
import dev.kopek.support.Api;
import dev.kopek.support.Race;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.LongSupplier;
import tools.jackson.databind.JsonNode;

/**
 * Runs one list of steps against a whole Kopek over HTTP (two instances on one database) and the PSP simulator,
 * from one thread; concurrency happens only inside {@link Op.Burst}. Remembers what it saw: the statuses of
 * each payment in order and anything over HTTP that no law allows.
 */
final class Driver {

    static final String PSP_WEBHOOK_SECRET = "whsec_simulator";
    private static final Duration LEASE_AND_GRACE = Duration.ofSeconds(31);

    /** A payment intent this run created: its reference and the request that created it. */
    private static final class Slot {
        final int merchant;
        final String reference;
        final String key;
        final String body;
        String lastPath;
        String lastKey;
        String lastBody;

        Slot(int merchant, String reference, String key, String body) {
            this.merchant = merchant;
            this.reference = reference;
            this.key = key;
            this.body = body;
        }
    }

    private final String prefix;
    private final List<Api> merchants;
    private final List<Api> viaSecond;
    private final Api outsider;
    private final AcquirerSimulator psp;
    private final Workers workers;
    private final Random random;
    private final List<Slot> slots = new ArrayList<>();
    private final List<WebhookEvent> pending = new ArrayList<>();
    private final Set<String> forwarded = new HashSet<>();
    private final Map<String, Api.Response> finalAnswers = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, String> finalAnswersBody = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<World.Observation> observations = new ArrayList<>();
    private final List<World.Finding> findings = Collections.synchronizedList(new ArrayList<>());
    private final int firstEvent;
    private final LongSupplier clockSeconds;
    /** A person deciding the run's open reviews from the PSP's record, as {@link Operator} does. */
    private final Runnable person;

    Driver(
            String prefix,
            List<Api> merchants,
            List<Api> viaSecond,
            Api outsider,
            AcquirerSimulator psp,
            Workers workers,
            LongSupplier clockSeconds,
            Runnable person,
            long seed) {
        this.prefix = prefix;
        this.merchants = merchants;
        this.viaSecond = viaSecond;
        this.outsider = outsider;
        this.psp = psp;
        this.workers = workers;
        this.random = new Random(seed ^ 0x5DEECE66DL);
        this.firstEvent = psp.webhookEvents().size();
        this.clockSeconds = clockSeconds;
        this.person = person;
    }

    List<World.Observation> observations() {
        return observations;
    }

    List<World.Finding> findings() {
        return findings;
    }

    Set<String> references() {
        Set<String> references = new HashSet<>();
        slots.forEach(s -> references.add(s.reference));
        return references;
    }

    void run(Op op) {
        try {
            switch (op) {
                case Op.Create c -> create(c);
                case Op.RetryCreate r ->
                    slot(r.slot())
                            .ifPresent(s -> send(api(s, r.viaSecond()), "/v1/payments", s.key, s.body, false, true));
                case Op.NewKeySameReference n ->
                    slot(n.slot())
                            .ifPresent(s -> send(
                                    merchants.get(s.merchant),
                                    "/v1/payments",
                                    Api.newKey(),
                                    Api.payment(s.reference, 500, "EUR", n.method()),
                                    false,
                                    false));
                case Op.Capture c -> slot(c.slot()).ifPresent(s -> capture(s, c));
                case Op.Void v -> slot(v.slot()).ifPresent(s -> voidIt(s, v));
                case Op.Refund r -> slot(r.slot()).ifPresent(s -> refund(s, r));
                case Op.Burst b -> slot(b.slot()).ifPresent(s -> burst(s, b));
                case Op.RetryLast r ->
                    slot(r.slot())
                            .filter(s -> s.lastPath != null)
                            .ifPresent(
                                    s -> send(api(s, r.viaSecond()), s.lastPath, s.lastKey, s.lastBody, false, true));
                case Op.Dispute d -> slot(d.slot()).ifPresent(s -> dispute(s, d));
                case Op.ResolveDispute r -> slot(r.slot()).ifPresent(s -> resolveDispute(s, r.won()));
                case Op.Deliver d -> deliver(d.mode());
                case Op.Reconcile r -> passOfWorkers();
                case Op.Jump j -> jump(j.past());
                case Op.Probe p -> slot(p.slot()).ifPresent(this::probe);
                case Op.Poison p -> poison(p.count());
                case Op.NotifyRacingReconciler r -> notifyRacingReconciler();
                case Op.DecideRacingNotifications d -> decideRacingNotifications();
            }
        } finally {
            workers.disarmCrashes();
        }
    }

    private java.util.Optional<Slot> slot(int n) {
        return slots.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(slots.get(n % slots.size()));
    }

    private Api api(Slot s, boolean second) {
        return (second ? viaSecond : merchants).get(s.merchant);
    }

    private void create(Op.Create c) {
        String reference = prefix + "-" + slots.size();
        String body = "{\"reference\":\"" + reference + "\",\"amount\":" + c.amount()
                + ",\"currency\":\"EUR\",\"payment_method\":\"" + c.method() + "\""
                + (c.manual() ? ",\"capture_method\":\"manual\"" : "") + "}";
        Slot slot = new Slot(c.merchant() % merchants.size(), reference, Api.newKey(), body);
        slots.add(slot);
        if (c.crash()) {
            workers.armCrash(c.viaSecond());
        }
        if (c.webhookDuringCall()) {
            sendWhileNotifying(api(slot, c.viaSecond()), slot, c.crash());
        } else {
            send(api(slot, c.viaSecond()), "/v1/payments", slot.key, body, c.crash(), false);
        }
        observe(slot);
    }

    /** The PSP's notification of the charge is forwarded as soon as the PSP created it, while the request runs. */
    private void sendWhileNotifying(Api api, Slot slot, boolean crashing) {
        try (var thread = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            var request = thread.submit(() -> send(api, "/v1/payments", slot.key, slot.body, crashing, false));
            long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            while (!request.isDone() && System.nanoTime() < deadline) {
                collectWebhooks();
                List<WebhookEvent> ours = pending.stream()
                        .filter(e -> e.payload().contains(slot.reference))
                        .toList();
                if (!ours.isEmpty()) {
                    pending.removeAll(ours);
                    ours.forEach(this::forward);
                    break;
                }
                Thread.onSpinWait();
            }
        }
    }

    private JsonNode payment(Slot s) {
        Api.Response list = merchants.get(s.merchant).get("/v1/payments?reference=" + s.reference);
        JsonNode data = list.status() == 200 ? list.json().get("data") : null;
        return data == null || data.isEmpty() ? null : data.get(0);
    }

    private void observe(Slot s) {
        JsonNode p = payment(s);
        if (p != null) {
            observations.add(new World.Observation(
                    p.get("id").asString(), p.get("status").asString()));
        }
    }

    private void capture(Slot s, Op.Capture c) {
        JsonNode p = payment(s);
        if (p == null) {
            return;
        }
        long amount = Math.max(1, p.get("amount_authorized").asLong() * c.percent() / 100);
        String body = "{" + (c.percent() == 0 ? "" : "\"amount\":" + amount)
                + (c.finalCapture() ? (c.percent() == 0 ? "" : ",") + "\"final\":true" : "") + "}";
        operation(s, p, "capture", "/capture", body, c.fault(), c.crash());
    }

    private void voidIt(Slot s, Op.Void v) {
        JsonNode p = payment(s);
        if (p != null) {
            operation(s, p, "void", "/void", "", v.fault(), v.crash());
        }
    }

    private void refund(Slot s, Op.Refund r) {
        JsonNode p = payment(s);
        if (p == null) {
            return;
        }
        long amount = Math.max(1, p.get("amount_captured").asLong() * r.percent() / 100);
        operation(s, p, "refund", "/refunds", "{\"amount\":" + amount + "}", r.fault(), false);
        if (r.crash()) {
            // Refunds reach the PSP from the worker that dispatches them: the crash happens in its pass.
            workers.armCrash(false);
            passOfWorkers();
        }
    }

    private void operation(Slot s, JsonNode p, String kind, String suffix, String body, String fault, boolean crash) {
        String charge = text(p, "psp_reference");
        if (fault != null && charge != null) {
            psp.armFault(kind, charge, fault, 1);
        }
        String path = "/v1/payments/" + p.get("id").asString() + suffix;
        s.lastPath = path;
        s.lastKey = Api.newKey();
        s.lastBody = body;
        if (crash) {
            workers.armCrash(false);
        }
        send(merchants.get(s.merchant), path, s.lastKey, body, crash, false);
        observe(s);
    }

    private void burst(Slot s, Op.Burst b) {
        JsonNode p = payment(s);
        if (p == null) {
            return;
        }
        long base = b.kind().equals("refund")
                ? p.get("amount_captured").asLong()
                : p.get("amount_authorized").asLong();
        String body = "{\"amount\":" + Math.max(1, base * b.percent() / 100) + "}";
        String path = "/v1/payments/" + p.get("id").asString() + (b.kind().equals("refund") ? "/refunds" : "/capture");
        String sharedKey = Api.newKey();
        try {
            Race.of(b.count(), i -> {
                send(
                        (i % 2 == 0 ? merchants : viaSecond).get(s.merchant),
                        path,
                        b.sameKey() ? sharedKey : Api.newKey(),
                        body,
                        false,
                        b.sameKey());
                return null;
            });
        } catch (Exception e) {
            findings.add(new World.Finding("driver", "burst failed: " + e));
        }
        observe(s);
    }

    /** Sends one request and notes what no law allows. {@code retry}: the key may have been used before. */
    private void send(Api api, String path, String key, String body, boolean crashing, boolean retry) {
        String keyId = path + " " + key;
        // Only an answer the client held before it sent binds this one: a request of a same-key burst that was
        // already waiting when another one's final answer arrived may still say 409 request_in_progress.
        Api.Response before = finalAnswers.get(keyId);
        String bodyBefore = finalAnswersBody.get(keyId);
        Api.Response r;
        try {
            r = api.post(path, key, body);
        } catch (RuntimeException e) {
            findings.add(new World.Finding("L5", "POST " + path + " failed on the wire: " + e));
            return;
        }
        String code = r.body() != null && r.body().contains("\"code\"") ? r.text("code") : null;
        if (r.status() >= 500 && !crashing) {
            findings.add(new World.Finding("L5", "POST " + path + " answered " + r.status() + ": " + r.body()));
        }
        if (!retry && r.status() == 409 && "request_in_progress".equals(code)) {
            findings.add(new World.Finding(
                    "L1",
                    "the first request with a fresh key to " + path + " answered 409 request_in_progress: "
                            + r.body()));
        }
        if (before != null
                && body.equals(bodyBefore)
                && (before.status() != r.status() || !before.body().equals(r.body()))) {
            findings.add(new World.Finding(
                    "L1",
                    "a retry with the same key to " + path + " answered " + r.status() + " " + r.body()
                            + " after the final answer " + before.status() + " " + before.body()));
        }
        if (before == null
                && (r.status() == 200 || r.status() == 201 || r.status() == 402)
                && finalAnswers.putIfAbsent(keyId, r) == null) {
            finalAnswersBody.put(keyId, body);
        }
    }

    private void dispute(Slot s, Op.Dispute d) {
        JsonNode p = payment(s);
        String charge = p == null ? null : text(p, "psp_reference");
        if (charge == null) {
            return;
        }
        long captured = psp.capturedTotal(charge);
        long disputable = captured - psp.refundedTotal(charge);
        // 100 %: the whole charge, refunded or not — a cardholder may dispute all of it, and a refund Kopek has not
        // recorded yet may be confirmed after the chargeback (issue 10, defects 1 and 2).
        Long amount = d.percent() == 100 && captured > 0
                ? Long.valueOf(captured)
                : d.percent() == 0 || disputable <= 0 ? null : Math.max(1, disputable * d.percent() / 100);
        try {
            String dispute = psp.openDispute(charge, amount, "fraudulent");
            if (d.then() != null) {
                psp.resolveDispute(dispute, d.then().equals("won"));
            }
        } catch (RuntimeException refused) {
            // The PSP refuses a dispute on a charge without disputable money, or a second one: nothing happened.
        }
    }

    private void resolveDispute(Slot s, boolean won) {
        JsonNode p = payment(s);
        String charge = p == null ? null : text(p, "psp_reference");
        if (charge == null) {
            return;
        }
        psp.movements(charge).stream()
                .filter(m -> m.type().equals("chargeback"))
                .findFirst()
                .ifPresent(m -> {
                    try {
                        psp.resolveDispute(m.id(), won);
                    } catch (RuntimeException closed) {
                        // Already resolved: the PSP refuses, nothing happened.
                    }
                });
    }

    /** Events of this run the PSP created and the driver has not taken yet, in creation order. */
    private void collectWebhooks() {
        List<WebhookEvent> all = psp.webhookEvents();
        Set<String> charges = new HashSet<>();
        psp.charges().stream()
                .filter(c -> c.reference() != null && c.reference().startsWith(prefix + "-"))
                .forEach(c -> charges.add(c.id()));
        for (WebhookEvent e : all.subList(Math.min(firstEvent, all.size()), all.size())) {
            boolean ours =
                    e.payload().contains(prefix + "-") || (e.chargeId() != null && charges.contains(e.chargeId()));
            if (ours && forwarded.add(e.id())) {
                pending.add(e);
            }
        }
    }

    void deliver(String mode) {
        collectWebhooks();
        List<WebhookEvent> batch = new ArrayList<>(pending);
        if (mode.equals("held")) {
            return;
        }
        pending.clear();
        switch (mode) {
            case "reversed" -> Collections.reverse(batch);
            case "shuffled" -> Collections.shuffle(batch, random);
            default -> {}
        }
        for (WebhookEvent e : batch) {
            forward(e);
            if (mode.equals("duplicated")) {
                forward(e);
            }
        }
    }

    private void forward(WebhookEvent e) {
        long t = clockSeconds.getAsLong();
        var request = merchants
                .getFirst()
                .request("/v1/psp/simulator/webhooks")
                .header("Content-Type", "application/json")
                .header("Simulator-Signature", WebhookSignature.header(PSP_WEBHOOK_SECRET, t, e.payload()))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(e.payload()))
                .build();
        Api.Response r = merchants.getFirst().send(request);
        if (r.status() != 200 && r.status() != 202 && r.status() != 204) {
            findings.add(new World.Finding(
                    "L5", "PSP notification " + e.type() + " " + e.id() + " answered " + r.status() + ": " + r.body()));
        }
    }

    void passOfWorkers() {
        workers.retryNotifications(message -> findings.add(new World.Finding("L5", message)));
        workers.reconcile(message -> findings.add(new World.Finding("L5", message)));
    }

    private void jump(String past) {
        workers.advance(
                switch (past) {
                    case "lease" -> LEASE_AND_GRACE;
                    case "key_window" -> Duration.ofHours(25);
                    case "authorization_expiry" -> Duration.ofDays(7).plusHours(1);
                    default -> throw new IllegalArgumentException(past);
                });
    }

    private void probe(Slot s) {
        JsonNode p = payment(s);
        if (p == null) {
            return;
        }
        String id = p.get("id").asString();
        expectNotFound(outsider.get("/v1/payments/" + id), "GET " + id);
        expectNotFound(outsider.post("/v1/payments/" + id + "/capture", Api.newKey(), "{}"), "capture " + id);
        expectNotFound(outsider.post("/v1/payments/" + id + "/void", Api.newKey(), ""), "void " + id);
        expectNotFound(
                outsider.post("/v1/payments/" + id + "/refunds", Api.newKey(), "{\"amount\":1}"), "refund " + id);
        Api.Response theirs = outsider.get("/v1/payments/" + id + "/refunds");
        if (theirs.status() != 404
                && !(theirs.status() == 200 && theirs.json().get("data").isEmpty())) {
            findings.add(
                    new World.Finding("L11", "another merchant lists the refunds of " + id + ": " + theirs.body()));
        }
        Api.Response mine = merchants.get(s.merchant).get("/v1/payments/" + id + "/refunds");
        JsonNode refunds = mine.status() == 200 ? mine.json().get("data") : null;
        if (refunds != null) {
            for (JsonNode refund : refunds) {
                expectNotFound(outsider.get("/v1/refunds/" + refund.get("id").asString()), "GET refund");
            }
        }
        Api.Response byReference = outsider.get("/v1/payments?reference=" + s.reference);
        if (byReference.status() == 200 && !byReference.json().get("data").isEmpty()) {
            findings.add(new World.Finding("L11", "another merchant lists " + s.reference + ": " + byReference.body()));
        }
    }

    private void expectNotFound(Api.Response r, String what) {
        if (r.status() != 404) {
            findings.add(new World.Finding(
                    "L11", "another merchant's " + what + " answered " + r.status() + ": " + r.body()));
        }
    }

    /**
     * Each pending webhook is held after its take-over of a key, before its phase 3, while a reconciler pass runs. The
     * notification holds the key with a lease of its own: a reconciler that asks the PSP about that key meanwhile took
     * it from under the notification (issue 24, defect 1; the lookup at the PSP is the oracle).
     */
    private void notifyRacingReconciler() {
        collectWebhooks();
        List<WebhookEvent> batch = new ArrayList<>(pending);
        pending.clear();
        workers.advance(LEASE_AND_GRACE);
        for (WebhookEvent e : batch) {
            LongSupplier asked = () -> lookupsOf(e);
            long before = asked.getAsLong();
            boolean held = workers.whileNotificationHeld(
                    () -> forward(e), () -> workers.reconcile(m -> findings.add(new World.Finding("L5", m))));
            if (held && asked.getAsLong() > before) {
                findings.add(new World.Finding(
                        "L4",
                        "a reconciler took over the key of PSP notification " + e.type() + " " + e.id()
                                + " (and asked the PSP) while the notification held it before its phase 3"));
            }
        }
    }

    /** How often the PSP was asked by key about what a notification names. */
    private long lookupsOf(WebhookEvent e) {
        String key = Api.JSON
                .readTree(e.payload())
                .path("data")
                .path("idempotency_key")
                .asString(null);
        if (key == null) {
            return 0;
        }
        String kind = e.type().substring(0, Math.max(0, e.type().indexOf('.')));
        return kind.equals("charge") ? psp.lookups(key) : psp.lookups(kind, key);
    }

    /**
     * A person decides every open review while the pending webhooks arrive, all released together: a decision and
     * the notification of one parked payment take their locks in one order, so neither is aborted (issue 24, defect 9).
     */
    private void decideRacingNotifications() {
        collectWebhooks();
        List<WebhookEvent> batch = new ArrayList<>(pending);
        pending.clear();
        try {
            Race.of(batch.size() + 1, i -> {
                if (i == 0) {
                    person.run();
                } else {
                    forward(batch.get(i - 1));
                }
                return null;
            });
        } catch (Exception e) {
            findings.add(new World.Finding("driver", "decisions racing notifications failed: " + e));
        }
    }

    /** Correctly signed notifications about objects Kopek never had: they can never be applied. */
    private void poison(int count) {
        for (int i = 0; i < count; i++) {
            // No hyphens: digit groups of a UUID joined by hyphens read as a card number now and then, and the
            // poisoned ids are logged (LogScanTest failed on evt_poison_39971269-9387-4165-…).
            String id = UUID.randomUUID().toString().replace('-', 'x');
            String body = "{\"id\":\"evt_poison_" + id + "\",\"type\":\"capture.succeeded\",\"created\":"
                    + clockSeconds.getAsLong() + ",\"data\":{\"id\":\"cap_poison_" + id
                    + "\",\"object\":\"capture\",\"charge_id\":\"ch_poison_" + id
                    + "\",\"amount\":100,\"currency\":\"EUR\",\"status\":\"succeeded\",\"idempotency_key\":\"poison-"
                    + id + "\"}}";
            forward(new WebhookEvent("evt_poison_" + id, "capture.succeeded", null, null, body));
        }
    }

    /** Runs workers and delivers webhooks until nothing moves (bounded); {@code digest} says what "moves" means. */
    void quiesce(java.util.function.Supplier<String> digest, int maxRounds) {
        String before = null;
        for (int round = 0; round < maxRounds; round++) {
            deliver("in_order");
            passOfWorkers();
            // The grace of an unknown outcome doubles per try (up to 16 x 30 s): jump further each round.
            workers.advance(LEASE_AND_GRACE.multipliedBy(1L << Math.min(round, 5)));
            passOfWorkers();
            deliver("in_order");
            String now = digest.get() + "|" + psp.movements().size() + "|"
                    + psp.webhookEvents().size();
            if (now.equals(before) && pending.isEmpty() && now.contains("undecided:0|")) {
                return;
            }
            before = now;
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asString();
    }
}
