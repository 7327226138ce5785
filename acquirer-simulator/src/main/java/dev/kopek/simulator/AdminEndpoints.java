package dev.kopek.simulator;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import tools.jackson.databind.JsonNode;

/** The {@code /_sim} endpoints: the oracle's read side and the test harness's controls. */
final class AdminEndpoints {
    private final Simulation simulation;

    AdminEndpoints(Simulation simulation) {
        this.simulation = simulation;
    }

    void register(Router router) {
        router.route("GET", "/_sim/charges", this::charges)
                .route("GET", "/_sim/stats", this::stats)
                .route("GET", "/_sim/config", request -> Json.ok(Json.config(simulation.config())))
                .route("POST", "/_sim/config", this::configure)
                .route("POST", "/_sim/reset", this::reset)
                .route("POST", "/_sim/clock/advance", this::advanceClock);
    }

    private Answer charges(Request request) {
        var charges = simulation.books().ledger()
                .charges(request.queryParam("idempotency_key"), request.queryParam("reference"));
        return new Answer.Reply(200, Json.chargeRecords(charges));
    }

    private Answer stats(Request request) {
        String key = request.queryParam("idempotency_key");
        ChargeLedger ledger = simulation.books().ledger();
        ChargeLedger.Stats stats = key == null ? ledger.totals() : ledger.stats(key);
        return Json.ok(Json.object()
                .put("money_movements", stats.moneyMovements())
                .put("lookups", stats.lookups())
                .put("charge_requests", stats.chargeRequests()));
    }

    private Answer configure(Request request) {
        ConfigPatch patch = ConfigPatch.parse(Json.parse(request.body()));
        try {
            return Json.ok(Json.config(simulation.updateConfig(patch::applyTo)));
        } catch (IllegalArgumentException e) {
            throw new BadRequest("invalid_config", e.getMessage());
        }
    }

    private Answer reset(Request request) {
        simulation.reset();
        return new Answer.Reply(204, new byte[0]);
    }

    private Answer advanceClock(Request request) {
        JsonNode body = Json.parse(request.body());
        JsonNode seconds = body == null ? null : body.get("seconds");
        if (seconds == null || !seconds.isIntegralNumber() || !seconds.canConvertToLong()
                || seconds.longValue() < 0) {
            throw new BadRequest("invalid_request", "seconds must be a non-negative integer");
        }
        Instant now;
        try {
            now = simulation.advanceClock(Duration.ofSeconds(seconds.longValue()));
        } catch (ArithmeticException | DateTimeException e) {
            throw new BadRequest("invalid_request", "seconds is too large");
        }
        return Json.ok(Json.object().put("now", now.toString()));
    }
}
