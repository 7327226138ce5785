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
                .route("POST", "/_sim/clock/advance", this::advanceClock)
                .route("POST", "/_sim/faults", this::armFault)
                .route("GET", "/_sim/movements", this::movements);
    }

    private Answer charges(Request request) {
        var charges = simulation
                .books()
                .ledger()
                .charges(request.queryParam("idempotency_key"), request.queryParam("reference"));
        return new Answer.Reply(200, Json.chargeRecords(charges));
    }

    private Answer stats(Request request) {
        String key = request.queryParam("idempotency_key");
        String operationName = request.queryParam("operation");
        Operation operation = operationName == null ? Operation.CHARGE : operation(operationName);
        if (operation != Operation.CHARGE) {
            RequestCounters counters = simulation.books().scope(operation).counters();
            return Json.ok(Json.object()
                    .put("requests", key == null ? counters.totalRequests() : counters.requests(key))
                    .put("lookups", key == null ? counters.totalLookups() : counters.lookups(key)));
        }
        ChargeLedger.Stats stats = key == null ? simulation.totals() : simulation.stats(key);
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

    private static Operation operation(String name) {
        try {
            return Operation.of(name);
        } catch (IllegalArgumentException e) {
            throw new BadRequest("invalid_request", e.getMessage());
        }
    }

    private Answer armFault(Request request) {
        JsonNode body = Json.parseObjectOrEmpty(request.body());
        String operation = requiredString(body, "operation");
        String chargeId = requiredString(body, "charge_id");
        String fault = requiredString(body, "fault");
        JsonNode timesNode = body.get("times");
        int times = 1;
        if (timesNode != null) {
            if (!timesNode.isIntegralNumber() || !timesNode.canConvertToInt()) {
                throw new BadRequest("invalid_request", "times must be an integer");
            }
            times = timesNode.intValue();
        }
        try {
            simulation.armFault(operation, chargeId, fault, times);
        } catch (IllegalArgumentException e) {
            throw new BadRequest("invalid_request", e.getMessage());
        }
        return Json.ok(Json.object()
                .put("operation", operation)
                .put("charge_id", chargeId)
                .put("fault", fault)
                .put("times", times));
    }

    private static String requiredString(JsonNode body, String name) {
        JsonNode node = body.get(name);
        if (node == null || !node.isString() || node.stringValue().isBlank()) {
            throw new BadRequest("invalid_request", name + " is required");
        }
        return node.stringValue();
    }

    private Answer movements(Request request) {
        return Json.reply(
                200, Json.movements(simulation.books().movements().movements(request.queryParam("charge_id"))));
    }

    private Answer reset(Request request) {
        simulation.reset();
        return new Answer.Reply(204, new byte[0]);
    }

    private Answer advanceClock(Request request) {
        JsonNode body = Json.parse(request.body());
        JsonNode seconds = body == null ? null : body.get("seconds");
        if (seconds == null || !seconds.isIntegralNumber() || !seconds.canConvertToLong() || seconds.longValue() < 0) {
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
