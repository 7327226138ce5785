package dev.kopek.access.web;

import dev.kopek.access.AdminIdentities;
import dev.kopek.access.AdminTokens;
import dev.kopek.audit.Actor;
import dev.kopek.money.PrefixedId;
import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import dev.kopek.platform.JsonBodies;
import dev.kopek.platform.ProblemCode;
import dev.kopek.platform.ProblemCodes;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
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

/** Admin identities, issued and revoked by an admin. A token is shown once, in the answer that issues it. */
@RestController
@Audience(Audience.Kind.ADMIN)
@RequestMapping("/v1/admin/identities")
class AdminIdentityController {

    private static final Pattern NAME = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N} ._@+-]{0,99}");

    private final AdminIdentities identities;
    private final AdminTokens tokens;

    AdminIdentityController(AdminIdentities identities, AdminTokens tokens) {
        this.identities = identities;
        this.tokens = tokens;
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    @ProblemCodes(
            jsonBody = true,
            value = {ProblemCode.INVALID_NAME, ProblemCode.NAME_TAKEN})
    Map<String, Object> issue(Actor actor, HttpServletRequest http) {
        ObjectNode body = JsonBodies.readObject(http, 1024);
        body.propertyNames().stream().filter(n -> !n.equals("name")).findFirst().ifPresent(n -> {
            throw ApiProblem.badRequest("unknown_field", n, "Unknown field '" + n + "'.");
        });
        JsonNode name = body.get("name");
        if (name == null
                || !name.isString()
                || !NAME.matcher(name.stringValue()).matches()
                || name.stringValue().equals(AdminTokens.BOOTSTRAP_NAME)) {
            throw ApiProblem.badRequest(
                    "invalid_name",
                    "name",
                    "name is required: 1–100 letters, digits, spaces"
                            + " and ._@+-, starting with a letter or digit; 'bootstrap' is taken.");
        }
        return switch (identities.issue(actor, name.stringValue())) {
            case AdminIdentities.Issued.Done done -> {
                Map<String, Object> json = json(done.identity());
                json.put("token", done.token());
                yield json;
            }
            case AdminIdentities.Issued.NameTaken taken ->
                throw ApiProblem.of(
                        HttpStatus.CONFLICT,
                        "name_taken",
                        "A live admin identity already has this name; revoke it first or choose another.");
        };
    }

    @GetMapping
    Map<String, Object> list() {
        List<Map<String, Object>> data = new ArrayList<>();
        if (tokens.bootstrapEnabled()) {
            Map<String, Object> bootstrap = new LinkedHashMap<>();
            bootstrap.put("id", AdminTokens.BOOTSTRAP_ID);
            bootstrap.put("object", "admin_identity");
            bootstrap.put("name", AdminTokens.BOOTSTRAP_NAME);
            bootstrap.put("source", "KOPEK_ADMIN_TOKEN");
            data.add(bootstrap);
        }
        identities.list().stream().map(AdminIdentityController::json).forEach(data::add);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("object", "list");
        json.put("data", data);
        return json;
    }

    @DeleteMapping("/{id}")
    @ProblemCodes(ProblemCode.BOOTSTRAP_IDENTITY)
    Map<String, Object> revoke(Actor actor, @PathVariable String id) {
        if (id.equals(AdminTokens.BOOTSTRAP_ID)) {
            throw ApiProblem.of(
                    HttpStatus.CONFLICT,
                    "bootstrap_identity",
                    "The bootstrap identity is" + " KOPEK_ADMIN_TOKEN; unset it and restart to retire it.");
        }
        return PrefixedId.parse("adm", id)
                .flatMap(uuid -> identities.revoke(actor, uuid))
                .map(AdminIdentityController::json)
                .orElseThrow(() -> ApiProblem.notFound("admin identity " + id));
    }

    private static Map<String, Object> json(AdminIdentities.Identity identity) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", identity.publicId());
        json.put("object", "admin_identity");
        json.put("name", identity.name());
        json.put("source", "issued");
        json.put("token_prefix", identity.tokenPrefix());
        json.put("created_at", identity.createdAt().toString());
        json.put("created_by", identity.createdBy());
        json.put(
                "revoked_at",
                identity.revokedAt() == null ? null : identity.revokedAt().toString());
        json.put("revoked_by", identity.revokedBy());
        return json;
    }
}
