package dev.kopek.simulator;

import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * A partial config update as sent to {@code POST /_sim/config}: only the fields present change.
 * Unknown fields are rejected rather than ignored, so a typo cannot silently leave a fault switched off.
 */
final class ConfigPatch {
    static final String LATENCY_MIN = "latency_min_ms";
    static final String LATENCY_MAX = "latency_max_ms";
    static final String SLOW_MIN = "slow_min_ms";
    static final String SLOW_MAX = "slow_max_ms";
    static final String TIMEOUT_HANG = "timeout_hang_ms";
    static final String KEY_WINDOW = "key_window_seconds";
    static final String FAIL_BEFORE = "fail_before_charge_rate";
    static final String FAIL_AFTER = "fail_after_charge_rate";
    static final String TIMEOUT_AFTER = "timeout_after_charge_rate";

    private static final Set<String> FIELDS = Set.of(LATENCY_MIN, LATENCY_MAX, SLOW_MIN, SLOW_MAX, TIMEOUT_HANG,
            KEY_WINDOW, FAIL_BEFORE, FAIL_AFTER, TIMEOUT_AFTER);

    private final JsonNode patch;

    private ConfigPatch(JsonNode patch) {
        this.patch = patch;
    }

    /** Checks the shape up front; value ranges are checked by {@link SimulatorConfig} itself. */
    static ConfigPatch parse(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new BadRequest("invalid_config", "config must be a JSON object");
        }
        for (Map.Entry<String, JsonNode> field : body.properties()) {
            String name = field.getKey();
            if (!FIELDS.contains(name)) {
                throw new BadRequest("invalid_config", "unknown config field " + name);
            }
            boolean rate = name.endsWith("_rate");
            JsonNode value = field.getValue();
            if (rate ? !value.isNumber() : !(value.isIntegralNumber() && value.canConvertToLong())) {
                throw new BadRequest("invalid_config", name + (rate ? " must be a number" : " must be an integer"));
            }
        }
        return new ConfigPatch(body);
    }

    /** The current config with this patch applied; throws IllegalArgumentException when the result is invalid. */
    SimulatorConfig applyTo(SimulatorConfig c) {
        return new SimulatorConfig(
                longOr(LATENCY_MIN, c.latencyMinMillis()), longOr(LATENCY_MAX, c.latencyMaxMillis()),
                longOr(SLOW_MIN, c.slowMinMillis()), longOr(SLOW_MAX, c.slowMaxMillis()),
                longOr(TIMEOUT_HANG, c.timeoutHangMillis()), longOr(KEY_WINDOW, c.keyWindowSeconds()),
                doubleOr(FAIL_BEFORE, c.failBeforeChargeRate()), doubleOr(FAIL_AFTER, c.failAfterChargeRate()),
                doubleOr(TIMEOUT_AFTER, c.timeoutAfterChargeRate()));
    }

    private long longOr(String name, long current) {
        JsonNode value = patch.get(name);
        return value == null ? current : value.longValue();
    }

    private double doubleOr(String name, double current) {
        JsonNode value = patch.get(name);
        return value == null ? current : value.doubleValue();
    }
}
