package dev.kopek.audit.web;

import dev.kopek.audit.AuditEvents;
import dev.kopek.money.PrefixedId;
import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

/** The audit trail for admins: newest first, a cursor for the next page, filters by actor and by target. */
@RestController
@Audience(Audience.Kind.ADMIN)
class AuditController {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_:.@+-]{1,100}");
    private static final Pattern NUMBER = Pattern.compile("\\d{1,18}");

    private final AuditEvents events;

    AuditController(AuditEvents events) {
        this.events = events;
    }

    @GetMapping("/v1/ops/audit")
    Map<String, Object> list(
            @RequestParam(required = false) String actor,
            @RequestParam(required = false) String target,
            @RequestParam(required = false) String cursor,
            @RequestParam(defaultValue = "100") String limit) {
        check(actor, ID, "actor", "actor is an actor id: adm_…, mer_… or system:<job>.");
        check(target, ID, "target", "target is an object's public id, such as mer_… or mrv_….");
        check(cursor, NUMBER, "cursor", "cursor is the next_cursor of the previous page.");
        int max = NUMBER.matcher(limit).matches() && limit.length() <= 3 ? Integer.parseInt(limit) : 0;
        if (max < 1 || max > AuditEvents.MAX_LIMIT) {
            throw ApiProblem.badRequest(
                    "invalid_query", "limit", "limit is a whole number from 1 to " + AuditEvents.MAX_LIMIT + ".");
        }
        AuditEvents.Page page = events.page(actor, target, cursor == null ? null : Long.parseLong(cursor), max);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("object", "list");
        body.put("data", page.events().stream().map(AuditController::json).toList());
        body.put("has_more", page.hasMore());
        body.put(
                "next_cursor",
                page.hasMore() ? Long.toString(page.events().getLast().seq()) : null);
        return body;
    }

    private static void check(String value, Pattern shape, String field, String detail) {
        if (value != null && !shape.matcher(value).matches()) {
            throw ApiProblem.badRequest("invalid_query", field, detail);
        }
    }

    private static Map<String, Object> json(AuditEvents.Event event) {
        Map<String, Object> actor = new LinkedHashMap<>();
        actor.put("kind", event.actorKind());
        actor.put("id", event.actorId());
        actor.put("name", event.actorName());
        Map<String, Object> target = new LinkedHashMap<>();
        target.put("type", event.targetType());
        target.put("id", event.targetId());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", PrefixedId.format("aud", event.id()));
        json.put("object", "audit_event");
        json.put("occurred_at", event.occurredAt().toString());
        json.put("actor", actor);
        json.put("action", event.action());
        json.put("target", target);
        json.put("request_id", event.requestId());
        json.put("client_ip", event.clientIp());
        json.put("before", event.before() == null ? null : JSON.readTree(event.before()));
        json.put("after", event.after() == null ? null : JSON.readTree(event.after()));
        return json;
    }
}
