package dev.kopek.simulator;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code GET /_sim/settlements/{date}} (CSV) and {@code POST /_sim/settlements/{date}/discrepancies}. */
final class SettlementEndpoints {
    private static final Set<String> FIELDS = Set.of("missing", "extra", "wrong_amount", "next_day");

    private final Simulation simulation;

    SettlementEndpoints(Simulation simulation) {
        this.simulation = simulation;
    }

    void register(Router router) {
        router.route("GET", "/_sim/settlements/{date}", this::file)
                .route("POST", "/_sim/settlements/{date}/discrepancies", this::addDiscrepancies);
    }

    private Answer file(Request request) {
        String csv = Settlements.csv(simulation.settlementRows(date(request)));
        return new Answer.Reply(
                200, csv.getBytes(StandardCharsets.UTF_8), Map.of("Content-Type", "text/csv; charset=utf-8"));
    }

    private Answer addDiscrepancies(Request request) {
        LocalDate date = date(request);
        JsonNode body = Json.parseObjectOrEmpty(request.body());
        body.propertyNames().forEach(name -> {
            if (!FIELDS.contains(name)) {
                throw new BadRequest("invalid_request", "unknown field " + name);
            }
        });
        SettlementDiscrepancies discrepancies;
        try {
            discrepancies = new SettlementDiscrepancies(
                    strings(body, "missing"), extraRows(body, date), wrongAmounts(body), strings(body, "next_day"));
            simulation.addSettlementDiscrepancies(date, discrepancies);
        } catch (IllegalArgumentException | DateTimeException e) {
            throw new BadRequest("invalid_request", e.getMessage());
        }
        return Json.ok(Json.object().put("date", date.toString()));
    }

    private static LocalDate date(Request request) {
        try {
            return LocalDate.parse(request.pathParam("date"));
        } catch (DateTimeParseException e) {
            throw new BadRequest("invalid_request", "the date must be yyyy-mm-dd");
        }
    }

    private static List<String> strings(JsonNode body, String name) {
        JsonNode array = body.get(name);
        List<String> values = new ArrayList<>();
        if (array == null) {
            return values;
        }
        if (!array.isArray()) {
            throw new BadRequest("invalid_request", name + " must be an array of psp references");
        }
        for (JsonNode value : array) {
            if (!value.isString()) {
                throw new BadRequest("invalid_request", name + " must be an array of psp references");
            }
            values.add(value.stringValue());
        }
        return values;
    }

    private static Map<String, Long> wrongAmounts(JsonNode body) {
        JsonNode object = body.get("wrong_amount");
        Map<String, Long> amounts = new LinkedHashMap<>();
        if (object == null) {
            return amounts;
        }
        if (!object.isObject()) {
            throw new BadRequest("invalid_request", "wrong_amount must map psp references to amounts");
        }
        for (Map.Entry<String, JsonNode> entry : object.properties()) {
            JsonNode amount = entry.getValue();
            if (!amount.isIntegralNumber() || !amount.canConvertToLong()) {
                throw new BadRequest("invalid_request", "wrong_amount values must be integers (minor units)");
            }
            amounts.put(entry.getKey(), amount.longValue());
        }
        return amounts;
    }

    private static List<SettlementRow> extraRows(JsonNode body, LocalDate date) {
        JsonNode array = body.get("extra");
        List<SettlementRow> rows = new ArrayList<>();
        if (array == null) {
            return rows;
        }
        if (!array.isArray()) {
            throw new BadRequest("invalid_request", "extra must be an array of rows");
        }
        for (JsonNode row : array) {
            if (!(row instanceof ObjectNode object)) {
                throw new BadRequest("invalid_request", "extra must be an array of rows");
            }
            JsonNode amount = object.get("amount");
            if (amount == null || !amount.isIntegralNumber() || !amount.canConvertToLong()) {
                throw new BadRequest("invalid_request", "an extra row needs an integer amount (minor units)");
            }
            JsonNode valueDate = object.get("value_date");
            rows.add(new SettlementRow(
                    text(object, "psp_reference"),
                    text(object, "type"),
                    amount.longValue(),
                    text(object, "currency"),
                    valueDate == null ? date : LocalDate.parse(text(object, "value_date"))));
        }
        return rows;
    }

    private static String text(JsonNode object, String name) {
        JsonNode value = object.get(name);
        return value != null && value.isString() ? value.stringValue() : null;
    }
}
