package dev.kopek.simulator;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;
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
    static final String AUTHORIZATION_TTL = "authorization_ttl_seconds";
    static final String FEE_BPS = "fee_bps";
    static final String WEBHOOK_URL = "webhook_url";
    static final String WEBHOOK_SECRET = "webhook_secret";
    static final String WEBHOOK_DUPLICATE_RATE = "webhook_duplicate_rate";
    static final String WEBHOOK_DELAY = "webhook_delay_ms";
    static final String WEBHOOK_RETRY_FOR = "webhook_retry_for_ms";
    static final String WEBHOOK_REORDER = "webhook_reorder";

    /** The JSON type each field must have. */
    private enum Kind {
        INTEGER("an integer"),
        NUMBER("a number"),
        BOOLEAN("true or false"),
        STRING("a string"),
        STRING_OR_NULL("a string or null");

        private final String description;

        Kind(String description) {
            this.description = description;
        }

        boolean accepts(JsonNode value) {
            return switch (this) {
                case INTEGER -> value.isIntegralNumber() && value.canConvertToLong();
                case NUMBER -> value.isNumber();
                case BOOLEAN -> value.isBoolean();
                case STRING -> value.isString();
                case STRING_OR_NULL -> value.isString() || value.isNull();
            };
        }
    }

    private static final Map<String, Kind> FIELDS = Map.ofEntries(
            Map.entry(LATENCY_MIN, Kind.INTEGER),
            Map.entry(LATENCY_MAX, Kind.INTEGER),
            Map.entry(SLOW_MIN, Kind.INTEGER),
            Map.entry(SLOW_MAX, Kind.INTEGER),
            Map.entry(TIMEOUT_HANG, Kind.INTEGER),
            Map.entry(KEY_WINDOW, Kind.INTEGER),
            Map.entry(FAIL_BEFORE, Kind.NUMBER),
            Map.entry(FAIL_AFTER, Kind.NUMBER),
            Map.entry(TIMEOUT_AFTER, Kind.NUMBER),
            Map.entry(AUTHORIZATION_TTL, Kind.INTEGER),
            Map.entry(FEE_BPS, Kind.INTEGER),
            Map.entry(WEBHOOK_URL, Kind.STRING_OR_NULL),
            Map.entry(WEBHOOK_SECRET, Kind.STRING),
            Map.entry(WEBHOOK_DUPLICATE_RATE, Kind.NUMBER),
            Map.entry(WEBHOOK_DELAY, Kind.INTEGER),
            Map.entry(WEBHOOK_REORDER, Kind.BOOLEAN),
            Map.entry(WEBHOOK_RETRY_FOR, Kind.INTEGER));

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
            Kind kind = FIELDS.get(name);
            if (kind == null) {
                throw new BadRequest("invalid_config", "unknown config field " + name);
            }
            if (!kind.accepts(field.getValue())) {
                throw new BadRequest("invalid_config", name + " must be " + kind.description);
            }
        }
        return new ConfigPatch(body);
    }

    /** The current config with this patch applied; throws IllegalArgumentException when the result is invalid. */
    SimulatorConfig applyTo(SimulatorConfig c) {
        WebhookSettings w = c.webhooks();
        WebhookSettings webhooks = new WebhookSettings(
                urlOr(w.url()),
                stringOr(WEBHOOK_SECRET, w.secret()),
                doubleOr(WEBHOOK_DUPLICATE_RATE, w.duplicateRate()),
                longOr(WEBHOOK_DELAY, w.delayMillis()),
                booleanOr(WEBHOOK_REORDER, w.reorder()),
                longOr(WEBHOOK_RETRY_FOR, w.retryForMillis()));
        return new SimulatorConfig(
                longOr(LATENCY_MIN, c.latencyMinMillis()),
                longOr(LATENCY_MAX, c.latencyMaxMillis()),
                longOr(SLOW_MIN, c.slowMinMillis()),
                longOr(SLOW_MAX, c.slowMaxMillis()),
                longOr(TIMEOUT_HANG, c.timeoutHangMillis()),
                longOr(KEY_WINDOW, c.keyWindowSeconds()),
                doubleOr(FAIL_BEFORE, c.failBeforeChargeRate()),
                doubleOr(FAIL_AFTER, c.failAfterChargeRate()),
                doubleOr(TIMEOUT_AFTER, c.timeoutAfterChargeRate()),
                longOr(AUTHORIZATION_TTL, c.authorizationTtlSeconds()),
                longOr(FEE_BPS, c.feeBps()),
                webhooks);
    }

    private long longOr(String name, long current) {
        JsonNode value = patch.get(name);
        return value == null ? current : value.longValue();
    }

    private double doubleOr(String name, double current) {
        JsonNode value = patch.get(name);
        return value == null ? current : value.doubleValue();
    }

    private boolean booleanOr(String name, boolean current) {
        JsonNode value = patch.get(name);
        return value == null ? current : value.booleanValue();
    }

    private String stringOr(String name, String current) {
        JsonNode value = patch.get(name);
        return value == null ? current : value.stringValue();
    }

    private URI urlOr(URI current) {
        JsonNode value = patch.get(WEBHOOK_URL);
        if (value == null) {
            return current;
        }
        if (value.isNull()) {
            return null;
        }
        try {
            return new URI(value.stringValue());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("webhook_url is not a valid URL");
        }
    }
}
