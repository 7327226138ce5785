package dev.kopek.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The acquirer simulator as its own process, and its admin API: faults, disputes, and the oracle's record. */
final class Simulator implements AutoCloseable {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final ChildProcess process;
    private final URI base;

    Simulator(Path jar, Path workDir) {
        int port = Ports.free();
        this.base = URI.create("http://127.0.0.1:" + port);
        this.process = new ChildProcess(
                "simulator",
                List.of("-Xmx768m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
                jar,
                List.of("--port", Integer.toString(port)),
                Map.of(),
                workDir.resolve("simulator.log"));
    }

    URI base() {
        return base;
    }

    void start() {
        process.start();
        if (!process.awaitHttpOk(base.resolve("/_sim/config"), Duration.ofSeconds(60))) {
            throw new IllegalStateException("the simulator did not start; see " + process.log());
        }
    }

    /**
     * Faults on for charges (fail before, fail after, time out after: one roll, so their rates are exact shares of
     * fresh charges), slow answers past Kopek's read timeout, and webhooks duplicated and reordered.
     */
    void faultsOn(URI webhookUrl, double failBefore, double failAfter, double timeoutAfter) {
        ObjectNode config = Json.object()
                .put("fail_before_charge_rate", failBefore)
                .put("fail_after_charge_rate", failAfter)
                .put("timeout_after_charge_rate", timeoutAfter)
                .put("timeout_hang_ms", 2500)
                .put("slow_min_ms", 800)
                .put("slow_max_ms", 2500)
                .put("latency_min_ms", 0)
                .put("latency_max_ms", 15)
                .put("webhook_url", webhookUrl.toString())
                .put("webhook_duplicate_rate", 0.2)
                .put("webhook_delay_ms", 400)
                .put("webhook_reorder", true);
        post("/_sim/config", config.toString());
    }

    /**
     * Refused notifications are retried for this long, as a real PSP retries through its merchant's outage (Stripe
     * for three days). The HA run needs it: a failover's gap is longer than the simulator's three quick retries.
     */
    void retryWebhooksFor(Duration window) {
        post(
                "/_sim/config",
                Json.object().put("webhook_retry_for_ms", window.toMillis()).toString());
    }

    /** The run's end: no more random faults, no more holding webhooks back. */
    void faultsOff() {
        post(
                "/_sim/config",
                Json.object()
                        .put("fail_before_charge_rate", 0.0)
                        .put("fail_after_charge_rate", 0.0)
                        .put("timeout_after_charge_rate", 0.0)
                        .put("webhook_reorder", false)
                        .put("webhook_delay_ms", 0)
                        .toString());
        post("/_sim/webhooks/flush", "{}");
    }

    void reset() {
        post("/_sim/reset", "{}");
    }

    /** Arms one fault for the next capture, void or refund of a charge; false when the simulator refused. */
    boolean armFault(String operation, String chargeId, String fault) {
        return post(
                                "/_sim/faults",
                                Json.object()
                                        .put("operation", operation)
                                        .put("charge_id", chargeId)
                                        .put("fault", fault)
                                        .put("times", 1)
                                        .toString())
                        .statusCode()
                == 200;
    }

    /** Opens a dispute for the whole disputable amount; its id, or null when refused (e.g. nothing captured). */
    String openDispute(String chargeId) {
        var response = post("/_sim/charges/" + chargeId + "/dispute", "{}");
        return response.statusCode() == 201 ? Json.text(Json.parse(response.body()), "id") : null;
    }

    boolean resolveDispute(String disputeId, boolean won) {
        return post(
                                "/_sim/disputes/" + disputeId + "/resolve",
                                Json.object()
                                        .put("outcome", won ? "won" : "lost")
                                        .toString())
                        .statusCode()
                == 200;
    }

    /** Webhook copies still under way: held for a batch, or waiting for a first try or a retry. */
    long pendingWebhooks() {
        return Json.parse(get("/_sim/webhooks/pending")).path("pending").asLong();
    }

    JsonNode movements() {
        return Json.parse(get("/_sim/movements"));
    }

    JsonNode charges() {
        return Json.parse(get("/_sim/charges"));
    }

    JsonNode stats() {
        return Json.parse(get("/_sim/stats"));
    }

    JsonNode stats(String operation) {
        return Json.parse(get("/_sim/stats?operation=" + operation));
    }

    private String get(String path) {
        try {
            var response = HTTP.send(
                    HttpRequest.newBuilder(base.resolve(path))
                            .timeout(Duration.ofSeconds(60))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("simulator " + path + ": " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> post(String path, String body) {
        try {
            return HTTP.send(
                    HttpRequest.newBuilder(base.resolve(path))
                            .timeout(Duration.ofSeconds(10))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        process.stop();
    }
}
