package dev.kopek.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import tools.jackson.databind.JsonNode;

/**
 * One merchant backend's order flow: pay (automatic or manual capture), then void, capture in full or in parts,
 * refund (sometimes several refunds at once that together exceed what was captured), and now and then a dispute
 * opened by the cardholder at the PSP. PSP faults are armed for a share of the captures, voids and refunds.
 */
final class Merchant {

    /** Payment methods with their weights: the simulator's fault tokens among ordinary ones. */
    private static final String[] METHODS = {
        "pm_ok",
        "pm_declined",
        "pm_timeout_after_charge",
        "pm_reset_after_charge",
        "pm_5xx_after_charge",
        "pm_slow",
        "pm_webhook_only",
        "pm_refund_declined"
    };

    private static final int[] WEIGHTS = {70, 4, 4, 4, 4, 5, 5, 4};
    private static final String[] ARMED = {
        "timeout_after_success", "reset_after_success", "5xx_after_success", "5xx_no_effect", "429", "declined"
    };
    private static final double ARM_SHARE = 0.15;

    private final Api api;
    private final Simulator simulator;
    private final Figures figures;
    private final String run;

    Merchant(Api api, Simulator simulator, Figures figures, String run) {
        this.api = api;
        this.simulator = simulator;
        this.figures = figures;
        this.run = run;
    }

    void order(long n) {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        String reference = run + "-o" + n;
        String method = method(rnd);
        boolean manual = rnd.nextDouble() < 0.4;
        long amount = 1_000 + rnd.nextLong(99_000);
        String body = Json.object()
                .put("reference", reference)
                .put("amount", amount)
                .put("currency", "EUR")
                .put("payment_method", method)
                .put("capture_method", manual ? "manual" : "automatic")
                .toString();
        if (!method.equals("pm_ok")) {
            figures.add("fault_psp_token_" + method.substring(3));
        }
        Api.Reply created = api.perform("payment", "/v1/payments", reference + "-pay", body);
        JsonNode payment = created.json();
        String id = Json.text(payment, "id");
        if (id == null) {
            return;
        }
        payment = settled(id, payment);
        switch (String.valueOf(Json.text(payment, "status"))) {
            case "authorized" -> manualCapture(reference, payment);
            case "captured" -> afterCapture(reference, payment);
            default -> {}
        }
    }

    private static String method(ThreadLocalRandom rnd) {
        int roll = rnd.nextInt(100);
        for (int i = 0; i < METHODS.length; i++) {
            roll -= WEIGHTS[i];
            if (roll < 0) {
                return METHODS[i];
            }
        }
        return METHODS[0];
    }

    /** Reads the payment until it is no longer processing (bounded: the end of the run waits for the rest). */
    private JsonNode settled(String id, JsonNode payment) {
        for (int i = 0; i < 20 && "processing".equals(Json.text(payment, "status")); i++) {
            Pause.millis(300);
            JsonNode read = api.get("/v1/payments/" + id).json();
            if (read != null && read.has("status")) {
                payment = read;
            }
        }
        return payment;
    }

    private void manualCapture(String reference, JsonNode payment) {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        String id = Json.text(payment, "id");
        long amount = payment.path("amount").asLong();
        double roll = rnd.nextDouble();
        if (roll < 0.2) {
            arm("void", payment);
            api.perform("void", "/v1/payments/" + id + "/void", reference + "-void", "{}");
            return;
        }
        if (roll < 0.6) {
            arm("capture", payment);
            api.perform("capture", "/v1/payments/" + id + "/capture", reference + "-cap1", "{}");
        } else {
            arm("capture", payment);
            api.perform(
                    "capture",
                    "/v1/payments/" + id + "/capture",
                    reference + "-cap1",
                    Json.object().put("amount", amount / 3).put("final", false).toString());
            String second = rnd.nextBoolean()
                    ? "{}"
                    : Json.object().put("amount", amount / 3).put("final", true).toString();
            arm("capture", payment);
            api.perform("capture", "/v1/payments/" + id + "/capture", reference + "-cap2", second);
        }
        JsonNode read = settled(id, api.get("/v1/payments/" + id).json());
        if (read != null && read.path("amount_captured").asLong() > 0) {
            afterCapture(reference, read);
        }
    }

    private void afterCapture(String reference, JsonNode payment) {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        String id = Json.text(payment, "id");
        long captured = payment.path("amount_captured").asLong();
        double roll = rnd.nextDouble();
        if (roll < 0.06) {
            dispute(payment);
        }
        if (roll < 0.3) {
            arm("refund", payment);
            long amount = rnd.nextBoolean() ? captured : Math.max(1, captured / 2);
            api.perform(
                    "refund",
                    "/v1/payments/" + id + "/refunds",
                    reference + "-ref1",
                    Json.object().put("amount", amount).toString());
        } else if (roll < 0.45) {
            concurrentRefunds(reference, id, captured, payment);
        }
    }

    /** Three refunds of 45% each, released together: at most two can fit, and never more than was captured. */
    private void concurrentRefunds(String reference, String id, long captured, JsonNode payment) {
        figures.add("concurrent_refund_groups");
        arm("refund", payment);
        long each = Math.max(1, captured * 45 / 100);
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String key = reference + "-cref" + i;
            CompletableFuture<Void> done = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> {
                try {
                    api.perform(
                            "refund",
                            "/v1/payments/" + id + "/refunds",
                            key,
                            Json.object().put("amount", each).toString());
                } finally {
                    done.complete(null);
                }
            });
            all.add(done);
        }
        all.forEach(CompletableFuture::join);
    }

    private void dispute(JsonNode payment) {
        String charge = Json.text(payment, "psp_reference");
        if (charge == null) {
            return;
        }
        figures.add("operations");
        figures.add("operations_dispute");
        String dispute = simulator.openDispute(charge);
        if (dispute == null) {
            figures.add("disputes_refused");
            return;
        }
        if (ThreadLocalRandom.current().nextBoolean()) {
            boolean won = ThreadLocalRandom.current().nextBoolean();
            simulator.resolveDispute(dispute, won);
            figures.add(won ? "disputes_won" : "disputes_lost");
        }
    }

    private void arm(String operation, JsonNode payment) {
        String charge = Json.text(payment, "psp_reference");
        if (charge == null || ThreadLocalRandom.current().nextDouble() >= ARM_SHARE) {
            return;
        }
        String fault = ARMED[ThreadLocalRandom.current().nextInt(ARMED.length)];
        if (simulator.armFault(operation, charge, fault)) {
            figures.add("fault_psp_armed_" + operation + "_" + fault);
        }
    }
}
