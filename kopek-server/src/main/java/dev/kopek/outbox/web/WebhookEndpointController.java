package dev.kopek.outbox.web;

import dev.kopek.audit.Actor;
import dev.kopek.audit.AuditTrail;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.money.MerchantId;
import dev.kopek.outbox.OutboxProperties;
import dev.kopek.outbox.webhooks.Delivery;
import dev.kopek.outbox.webhooks.Endpoint;
import dev.kopek.outbox.webhooks.WebhookEndpoints;
import dev.kopek.outbox.webhooks.WebhookJson;
import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import dev.kopek.platform.JsonBodies;
import dev.kopek.platform.ProblemCode;
import dev.kopek.platform.ProblemCodes;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /v1/webhook-endpoints}: where Kopek posts a merchant's events. The signing secret appears only in the
 * answer to the create request (and in that answer's idempotent replay). Deliveries and their attempts can be
 * inspected, and any delivery sent again.
 */
@RestController
@Audience(Audience.Kind.MERCHANT)
@RequestMapping("/v1/webhook-endpoints")
class WebhookEndpointController {

    private static final int MAX_BODY_BYTES = 8 * 1024;
    private static final tools.jackson.databind.json.JsonMapper SUMMARY =
            tools.jackson.databind.json.JsonMapper.builder().build();

    private final WebhookEndpoints endpoints;
    private final boolean allowHttpLoopback;
    private final AuditTrail audit;

    WebhookEndpointController(WebhookEndpoints endpoints, OutboxProperties properties, AuditTrail audit) {
        this.endpoints = endpoints;
        this.allowHttpLoopback = properties.webhooks().allowHttpLoopback();
        this.audit = audit;
    }

    @PostMapping
    @ProblemCodes(
            jsonBody = true,
            value = {
                ProblemCode.MISSING_FIELD,
                ProblemCode.INVALID_URL,
                ProblemCode.INSECURE_URL,
                ProblemCode.URL_NOT_ALLOWED,
                ProblemCode.INVALID_EVENT_TYPES,
                ProblemCode.UNKNOWN_EVENT_TYPE,
                ProblemCode.ENDPOINT_LIMIT_REACHED
            })
    ResponseEntity<String> create(
            MerchantId merchant,
            Actor actor,
            @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey,
            HttpServletRequest http) {
        String key = checkedKey(idempotencyKey);
        EndpointRequest request = EndpointRequest.parse(JsonBodies.readObject(http, MAX_BODY_BYTES), allowHttpLoopback);
        return respond(audit.inTransaction(status -> {
            WebhookEndpoints.Answer answer = endpoints.create(merchant, key, request.url(), request.eventTypes());
            if (!(answer instanceof WebhookEndpoints.Answer.Done done)) {
                // The creating transaction rolled its key back; this one, which it joined, must follow quietly.
                status.setRollbackOnly();
            } else if (!done.replayed()) {
                recordEndpoint(actor, "webhook_endpoint.created", null, done.body());
            }
            return answer;
        }));
    }

    @GetMapping
    ResponseEntity<String> list(MerchantId merchant) {
        return json(HttpStatus.OK, WebhookJson.renderEndpoints(endpoints.list(merchant)));
    }

    @GetMapping("/{id}")
    ResponseEntity<String> get(MerchantId merchant, @PathVariable String id) {
        return endpoints
                .find(merchant, endpointId(id))
                .map(e -> json(HttpStatus.OK, WebhookJson.render(e, null)))
                .orElseThrow(() -> ApiProblem.notFound("webhook endpoint " + id));
    }

    @DeleteMapping("/{id}")
    ResponseEntity<String> delete(MerchantId merchant, Actor actor, @PathVariable String id) {
        return audit.inTransaction(status -> endpoints
                        .find(merchant, endpointId(id))
                        .flatMap(before -> {
                            var deleted = endpoints.delete(merchant, before.id());
                            deleted.ifPresent(after -> recordEndpoint(
                                    actor,
                                    "webhook_endpoint.deleted",
                                    WebhookJson.render(before, null),
                                    WebhookJson.render(after, null)));
                            return deleted;
                        }))
                .map(e -> json(HttpStatus.OK, WebhookJson.render(e, null)))
                .orElseThrow(() -> ApiProblem.notFound("webhook endpoint " + id));
    }

    /** The endpoint's id, URL, events and status as the merchant sees them; its signing secret is never kept. */
    private void recordEndpoint(Actor actor, String action, String before, String after) {
        Map<String, Object> afterSummary = summary(after);
        Map<String, Object> beforeSummary = summary(before);
        String id = String.valueOf((afterSummary != null ? afterSummary : beforeSummary).get("id"));
        audit.record(actor, action, "webhook_endpoint", id, beforeSummary, afterSummary);
    }

    private static Map<String, Object> summary(String json) {
        if (json == null) {
            return null;
        }
        var node = SUMMARY.readTree(json);
        Map<String, Object> summary = new java.util.LinkedHashMap<>();
        for (String field : new String[] {"id", "url", "event_types", "status"}) {
            if (node.has(field)) {
                summary.put(field, SUMMARY.treeToValue(node.get(field), Object.class));
            }
        }
        return summary;
    }

    @GetMapping("/{id}/deliveries")
    @ProblemCodes(ProblemCode.INVALID_LIMIT)
    ResponseEntity<String> deliveries(
            MerchantId merchant, @PathVariable String id, @RequestParam(required = false) String limit) {
        return endpoints
                .deliveries(merchant, endpointId(id), EventFeedController.limit(limit))
                .map(list -> json(HttpStatus.OK, WebhookJson.renderDeliveries(list)))
                .orElseThrow(() -> ApiProblem.notFound("webhook endpoint " + id));
    }

    @GetMapping("/{id}/deliveries/{delivery}")
    ResponseEntity<String> delivery(MerchantId merchant, @PathVariable String id, @PathVariable String delivery) {
        return endpoints
                .delivery(merchant, endpointId(id), deliveryId(delivery))
                .map(d -> json(HttpStatus.OK, WebhookJson.render(d)))
                .orElseThrow(() -> ApiProblem.notFound("webhook delivery " + delivery));
    }

    @PostMapping("/{id}/deliveries/{delivery}/redeliver")
    @ProblemCodes(ProblemCode.ENDPOINT_NOT_ENABLED)
    ResponseEntity<String> redeliver(
            MerchantId merchant,
            @PathVariable String id,
            @PathVariable String delivery,
            @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey) {
        String key = checkedKey(idempotencyKey);
        return respond(endpoints.redeliver(merchant, key, endpointId(id), deliveryId(delivery)));
    }

    private static ResponseEntity<String> respond(WebhookEndpoints.Answer answer) {
        return switch (answer) {
            case WebhookEndpoints.Answer.Done done -> {
                var response = ResponseEntity.status(done.status()).contentType(MediaType.APPLICATION_JSON);
                if (done.replayed()) {
                    response.header("Idempotent-Replayed", "true");
                }
                yield response.body(done.body());
            }
            case WebhookEndpoints.Answer.KeyReused reused ->
                throw ApiProblem.of(
                        HttpStatus.UNPROCESSABLE_CONTENT,
                        "idempotency_key_reused",
                        "This Idempotency-Key was already used with different parameters; use a new key.");
            case WebhookEndpoints.Answer.InFlight inFlight ->
                throw ApiProblem.withHeaders(
                        HttpStatus.CONFLICT,
                        "request_in_progress",
                        "A request with this Idempotency-Key is still being processed; retry "
                                + "with the same key after Retry-After seconds.",
                        Map.of("Retry-After", Long.toString(Math.max(1, inFlight.retryAfterSeconds()))));
            case WebhookEndpoints.Answer.NotFound notFound -> throw ApiProblem.notFound("webhook delivery");
            case WebhookEndpoints.Answer.LimitReached limit ->
                throw ApiProblem.of(
                        HttpStatus.CONFLICT,
                        "endpoint_limit_reached",
                        "A merchant may have at most " + limit.limit() + " webhook endpoints; delete one first.");
            case WebhookEndpoints.Answer.EndpointNotLive notLive ->
                throw ApiProblem.of(
                        HttpStatus.CONFLICT,
                        "endpoint_not_enabled",
                        "This webhook endpoint is disabled; create a new one to receive events.");
        };
    }

    private static String checkedKey(String idempotencyKey) {
        if (idempotencyKey == null) {
            throw ApiProblem.badRequest(
                    "missing_idempotency_key",
                    "Idempotency-Key",
                    "Every POST needs an Idempotency-Key header; reuse it when you retry.");
        }
        if (!ClientKey.isWellFormed(idempotencyKey)) {
            throw ApiProblem.badRequest(
                    "invalid_idempotency_key",
                    "Idempotency-Key",
                    "Idempotency-Key must be 1–255 printable ASCII characters.");
        }
        return idempotencyKey;
    }

    private static UUID endpointId(String text) {
        return Endpoint.parseId(text).orElseThrow(() -> ApiProblem.notFound("webhook endpoint " + text));
    }

    private static UUID deliveryId(String text) {
        return Delivery.parseId(text).orElseThrow(() -> ApiProblem.notFound("webhook delivery " + text));
    }

    private static ResponseEntity<String> json(HttpStatus status, String body) {
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .body(body);
    }
}
