package dev.kopek.ratelimits.web;

import dev.kopek.audit.Actor;
import dev.kopek.audit.AuditTrail;
import dev.kopek.merchants.Merchants;
import dev.kopek.money.MerchantId;
import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import dev.kopek.platform.JsonBodies;
import dev.kopek.platform.ProblemCode;
import dev.kopek.platform.ProblemCodes;
import dev.kopek.ratelimits.Kind;
import dev.kopek.ratelimits.Limit;
import dev.kopek.ratelimits.RateLimiter;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Admin: a merchant's rate limits. {@code PUT} with {@code {"writes": {"per_second": 10, "burst": 20}}} sets the
 * writes limit, {@code "writes": null} returns it to the default, a kind left out stays as it is.
 */
@RestController
@Audience(Audience.Kind.ADMIN)
class AdminRateLimitController {

    private static final String PATH = "/v1/admin/merchants/{merchantId}/rate-limits";
    private static final Map<String, Kind> FIELDS = Map.of("writes", Kind.WRITE, "reads", Kind.READ);

    private final RateLimiter limiter;
    private final Merchants merchants;
    private final AuditTrail audit;

    AdminRateLimitController(RateLimiter limiter, Merchants merchants, AuditTrail audit) {
        this.limiter = limiter;
        this.merchants = merchants;
        this.audit = audit;
    }

    @GetMapping(PATH)
    Map<String, Object> show(@PathVariable String merchantId) {
        return json(merchant(merchantId));
    }

    @PutMapping(PATH)
    @ProblemCodes(
            jsonBody = true,
            value = {ProblemCode.INVALID_RATE_LIMIT})
    Map<String, Object> change(Actor actor, @PathVariable String merchantId, HttpServletRequest http) {
        MerchantId merchant = merchant(merchantId);
        ObjectNode body = JsonBodies.readObject(http, 4096);
        Map<Kind, Optional<Limit>> changes = new LinkedHashMap<>();
        for (String name : body.propertyNames()) {
            Kind kind = FIELDS.get(name);
            if (kind == null) {
                throw ApiProblem.badRequest("unknown_field", name, "Unknown field '" + name + "'; use writes, reads.");
            }
            changes.put(kind, limit(name, body.get(name)));
        }
        return audit.inTransaction(status -> {
            Map<String, Object> before = json(merchant);
            changes.forEach((kind, limit) -> limiter.setLimit(merchant, kind, limit.orElse(null), actor.name()));
            Map<String, Object> after = json(merchant);
            audit.record(actor, "merchant.rate_limits_changed", "merchant", merchant.toString(), before, after);
            return after;
        });
    }

    private static Optional<Limit> limit(String field, JsonNode node) {
        if (node.isNull()) {
            return Optional.empty();
        }
        JsonNode rate = node.get("per_second");
        JsonNode burst = node.get("burst");
        if (!node.isObject()
                || node.size() != 2
                || rate == null
                || !rate.isNumber()
                || burst == null
                || !burst.isIntegralNumber()
                || !burst.canConvertToInt()) {
            throw invalid(field);
        }
        try {
            return Optional.of(new Limit(rate.asDouble(), burst.asInt()));
        } catch (IllegalArgumentException e) {
            throw invalid(field);
        }
    }

    private static ApiProblem invalid(String field) {
        return ApiProblem.badRequest(
                "invalid_rate_limit",
                field,
                field + " must be null (the default) or "
                        + "{\"per_second\": 0 < number <= " + (long) Limit.MAX_PER_SECOND + ", \"burst\": 1.."
                        + Limit.MAX_BURST + "}.");
    }

    private MerchantId merchant(String text) {
        return MerchantId.parse(text)
                .filter(id -> merchants.find(id).isPresent())
                .orElseThrow(() -> ApiProblem.notFound("merchant " + text));
    }

    private Map<String, Object> json(MerchantId merchant) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("object", "rate_limits");
        json.put("merchant", merchant.toString());
        FIELDS.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            Limit limit = limiter.limitOf(merchant, e.getValue());
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("per_second", limit.perSecond());
            fields.put("burst", limit.burst());
            fields.put("default", !limiter.hasOverride(merchant, e.getValue()));
            json.put(e.getKey(), fields);
        });
        return json;
    }
}
