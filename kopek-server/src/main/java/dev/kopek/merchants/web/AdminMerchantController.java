package dev.kopek.merchants.web;

import dev.kopek.audit.Actor;
import dev.kopek.audit.AuditTrail;
import dev.kopek.merchants.IssuedKey;
import dev.kopek.merchants.Merchants;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PrefixedId;
import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import dev.kopek.platform.JsonBodies;
import dev.kopek.platform.ProblemCode;
import dev.kopek.platform.ProblemCodes;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Admin API ({@code KOPEK_ADMIN_TOKEN}): merchants and their keys. A key's secret is shown once, here. */
@RestController
@Audience(Audience.Kind.ADMIN)
@RequestMapping("/v1/admin/merchants")
class AdminMerchantController {

    private final Merchants merchants;
    private final AuditTrail audit;

    AdminMerchantController(Merchants merchants, AuditTrail audit) {
        this.merchants = merchants;
        this.audit = audit;
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    @ProblemCodes(
            jsonBody = true,
            value = {ProblemCode.INVALID_NAME})
    Map<String, Object> create(Actor actor, HttpServletRequest http) {
        ObjectNode body = JsonBodies.readObject(http, 4096);
        body.propertyNames().stream().filter(n -> !n.equals("name")).findFirst().ifPresent(n -> {
            throw ApiProblem.badRequest("unknown_field", n, "Unknown field '" + n + "'.");
        });
        JsonNode name = body.get("name");
        if (name == null
                || !name.isString()
                || name.stringValue().isBlank()
                || name.stringValue().length() > 200) {
            throw ApiProblem.badRequest("invalid_name", "name", "name is required: 1–200 characters.");
        }
        return audit.inTransaction(status -> {
            Merchants.Merchant merchant = merchants.create(name.stringValue().strip());
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("id", merchant.id().toString());
            json.put("object", "merchant");
            json.put("name", merchant.name());
            json.put("created_at", merchant.createdAt().toString());
            audit.record(actor, "merchant.created", "merchant", merchant.id().toString(), null, json);
            return json;
        });
    }

    @PostMapping("/{merchantId}/keys")
    @ResponseStatus(HttpStatus.CREATED)
    Map<String, Object> issueKey(Actor actor, @PathVariable String merchantId) {
        MerchantId merchant = merchant(merchantId);
        return audit.inTransaction(status -> {
            IssuedKey key = merchants.issueKey(merchant);
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("id", PrefixedId.format("key", key.id()));
            json.put("object", "api_key");
            json.put("merchant_id", merchant.toString());
            json.put("prefix", key.prefix());
            json.put("created_at", key.createdAt().toString());
            audit.record(actor, "api_key.issued", "api_key", PrefixedId.format("key", key.id()), null, json);
            json.put("secret", key.secret());
            return json;
        });
    }

    @GetMapping("/{merchantId}/keys")
    Map<String, Object> keys(@PathVariable String merchantId) {
        List<Map<String, Object>> data =
                merchants.keys(merchant(merchantId)).stream().map(this::json).toList();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("object", "list");
        json.put("data", data);
        return json;
    }

    @DeleteMapping("/{merchantId}/keys/{keyId}")
    Map<String, Object> revoke(Actor actor, @PathVariable String merchantId, @PathVariable String keyId) {
        MerchantId merchant = merchant(merchantId);
        var id = PrefixedId.parse("key", keyId).orElseThrow(() -> ApiProblem.notFound("api key " + keyId));
        return audit.inTransaction(status -> {
                    var before = merchants.keys(merchant).stream()
                            .filter(k -> k.id().equals(id))
                            .findFirst();
                    var after = merchants.revoke(merchant, id);
                    if (before.isPresent() && after.isPresent() && before.get().revokedAt() == null) {
                        audit.record(actor, "api_key.revoked", "api_key", keyId, json(before.get()), json(after.get()));
                    }
                    return after.map(this::json);
                })
                .orElseThrow(() -> ApiProblem.notFound("api key " + keyId));
    }

    private MerchantId merchant(String text) {
        return MerchantId.parse(text)
                .filter(id -> merchants.find(id).isPresent())
                .orElseThrow(() -> ApiProblem.notFound("merchant " + text));
    }

    private Map<String, Object> json(Merchants.KeyInfo key) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", PrefixedId.format("key", key.id()));
        json.put("object", "api_key");
        json.put("prefix", key.prefix());
        json.put("created_at", key.createdAt().toString());
        json.put("revoked_at", key.revokedAt() == null ? null : key.revokedAt().toString());
        return json;
    }
}
