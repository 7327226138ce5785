package dev.kopek.psp.simulator;

import dev.kopek.psp.ChargeOutcome;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Maps the simulator's answers to outcomes by meaning (L5). Only an explicit approval is success and only an
 * explicit refusal is a decline; 400/401/403/422 say the request was refused before anything happened, and so
 * does a 409 that names the state of the charge (a capture, void or refund the PSP refuses: its contract says such
 * refusals change nothing, store nothing and release the key); every other answer — 409 request_in_progress
 * (duplicate in flight), 409 charge_processing (not decided yet), 429, 5xx, or anything unexpected — proves
 * nothing and is unknown. So is 422 idempotency_key_reused: this request did nothing, but the key was first used
 * with other parameters, and that first use may have moved money (as Stripe's idempotency_error; the adapter
 * contract kit holds both adapters to it).
 */
final class SimulatorResponses {

    /** The simulator's refusals of a capture, void or refund for the charge's state: nothing happened. */
    private static final Set<String> STATE_REFUSALS = Set.of(
            "charge_disputed",
            "charge_declined",
            "already_captured",
            "authorization_voided",
            "capture_finalized",
            "authorization_expired",
            "amount_exceeds_capturable",
            "amount_exceeds_refundable");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private SimulatorResponses() {}

    static ChargeOutcome classify(int status, String body) {
        JsonNode json = parse(body);
        return switch (status) {
            case 200, 201 -> fromChargeBody(json, status);
            case 402 -> new ChargeOutcome.Declined(text(json, "decline_code", "declined"), text(json, "id", null));
            case 422 ->
                text(json, "error", "").equals("idempotency_key_reused")
                        ? new ChargeOutcome.Unknown("psp answered 422 idempotency_key_reused: the key's first use may"
                                + " have moved money")
                        : new ChargeOutcome.Failed(
                                "psp refused the request (422 " + text(json, "error", "no error code") + ")");
            case 400, 401, 403 ->
                new ChargeOutcome.Failed(
                        "psp refused the request (" + status + " " + text(json, "error", "no error code") + ")");
            case 409 ->
                STATE_REFUSALS.contains(text(json, "error", ""))
                        ? new ChargeOutcome.Failed("psp refused the request (409 " + text(json, "error", "") + ")")
                        : new ChargeOutcome.Unknown("psp answered 409 " + text(json, "error", ""));
            default -> new ChargeOutcome.Unknown("psp answered " + status + " " + text(json, "error", ""));
        };
    }

    /** A 2xx body must say what happened; one that does not is unknown, never assumed to be success. */
    static ChargeOutcome fromChargeBody(JsonNode json, int status) {
        String outcome = text(json, "status", "");
        return switch (outcome) {
            case "succeeded" -> {
                String id = text(json, "id", null);
                yield id == null
                        ? new ChargeOutcome.Unknown("psp approval without a charge id")
                        : new ChargeOutcome.Succeeded(id);
            }
            case "authorized" -> authorized(json);
            case "declined" ->
                new ChargeOutcome.Declined(text(json, "decline_code", "declined"), text(json, "id", null));
            default -> new ChargeOutcome.Unknown("psp answered " + status + " with status '" + outcome + "'");
        };
    }

    private static ChargeOutcome authorized(JsonNode json) {
        String id = text(json, "id", null);
        String expires = text(json, "expires_at", null);
        if (id == null || expires == null) {
            return new ChargeOutcome.Unknown("psp authorization without an id or expiry");
        }
        try {
            return new ChargeOutcome.Authorized(id, java.time.Instant.parse(expires));
        } catch (java.time.format.DateTimeParseException e) {
            return new ChargeOutcome.Unknown("psp authorization with an unreadable expiry");
        }
    }

    static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return JSON.createObjectNode();
        }
        try {
            return JSON.readTree(body);
        } catch (JacksonException e) {
            return JSON.createObjectNode();
        }
    }

    private static String text(JsonNode json, String field, String fallback) {
        JsonNode value = json.get(field);
        return value != null && value.isString() ? value.stringValue() : fallback;
    }
}
