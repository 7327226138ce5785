package dev.kopek.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * Kopek's own production audit at the end of a run (issue 26 §2): the run must end with its violations at 0, as
 * {@code GET /v1/ops/invariants} reports them. Waits (bounded) until every check has finished a whole pass that
 * began after the wait did — its pass number two above what it was — so the verdict covers everything the run
 * wrote, then reads the current violations. Shared by the crash run and the high-availability run.
 */
final class ProductionAudit {

    /** The audit's verdict; {@code covered} false when the wait ran out before every check finished a pass. */
    record Verdict(long violations, List<String> examples, boolean covered) {}

    private ProductionAudit() {}

    /**
     * Waits for the verdict, says it in the run's output and answers what it counts as violations: the audit's own,
     * plus one when its passes did not finish in time (a verdict that covers nothing is no verdict).
     */
    static long report(URI kopek, String adminToken, Duration timeout, Consumer<String> say) {
        Verdict verdict = await(kopek, adminToken, timeout);
        say.accept("check in_production_audit = " + verdict.violations()
                + (verdict.covered() ? "" : " (its passes did not finish in time: counted as a violation)"));
        verdict.examples().stream().limit(5).forEach(example -> say.accept("    e.g. " + example));
        return verdict.violations() + (verdict.covered() ? 0 : 1);
    }

    static Verdict await(URI kopek, String adminToken, Duration timeout) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Map<String, Long> startPass = new HashMap<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode status = read(http, kopek, adminToken);
        status.get("checks")
                .forEach(c -> startPass.put(Json.text(c, "check"), c.get("pass").asLong()));
        boolean covered = false;
        while (System.nanoTime() < deadline) {
            status = read(http, kopek, adminToken);
            covered = true;
            for (JsonNode c : status.get("checks")) {
                long from = startPass.getOrDefault(Json.text(c, "check"), 0L);
                covered &= c.get("pass").asLong() >= from + 2;
            }
            if (covered) {
                break;
            }
            Pause.millis(500);
        }
        List<String> examples = new ArrayList<>();
        status.get("recent").forEach(v -> examples.add(Json.text(v, "check") + ": " + Json.text(v, "detail")));
        return new Verdict(status.get("violations").asLong(), examples, covered);
    }

    private static JsonNode read(HttpClient http, URI kopek, String adminToken) {
        HttpRequest request = HttpRequest.newBuilder(kopek.resolve("/v1/ops/invariants"))
                .header("Authorization", "Bearer " + adminToken)
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build();
        try {
            HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200) {
                throw new IllegalStateException("GET /v1/ops/invariants answered " + answer.statusCode());
            }
            return Json.parse(answer.body());
        } catch (IOException e) {
            throw new IllegalStateException("GET /v1/ops/invariants failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading /v1/ops/invariants", e);
        }
    }
}
