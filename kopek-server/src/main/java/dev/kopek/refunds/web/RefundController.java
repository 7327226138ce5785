package dev.kopek.refunds.web;

import dev.kopek.idempotency.ClientKey;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.money.RefundId;
import dev.kopek.payments.PaymentAnswer;
import dev.kopek.platform.Amounts;
import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import dev.kopek.platform.JsonBodies;
import dev.kopek.platform.ProblemCode;
import dev.kopek.platform.ProblemCodes;
import dev.kopek.refunds.RefundJson;
import dev.kopek.refunds.Refunds;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import java.util.Set;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

@RestController
@Audience(Audience.Kind.MERCHANT)
class RefundController {

    private static final Set<String> FIELDS = Set.of("amount", "reason");
    private static final int MAX_REASON = 500;

    private final Refunds refunds;
    private final long maxAmountMinor;

    RefundController(Refunds refunds, @Value("${kopek.payments.max-amount-minor:100000000000}") long maxAmountMinor) {
        this.refunds = refunds;
        this.maxAmountMinor = maxAmountMinor;
    }

    @PostMapping("/v1/payments/{id}/refunds")
    @ProblemCodes(
            jsonBody = true,
            value = {
                ProblemCode.MISSING_FIELD,
                ProblemCode.INVALID_AMOUNT,
                ProblemCode.AMOUNT_TOO_LARGE,
                ProblemCode.INVALID_REASON,
                ProblemCode.PAYMENT_NOT_CAPTURED,
                ProblemCode.AMOUNT_EXCEEDS_REFUNDABLE
            })
    ResponseEntity<String> create(
            MerchantId merchant,
            @PathVariable String id,
            @RequestHeader(name = "Idempotency-Key", required = false) String key,
            HttpServletRequest http) {
        if (key == null || !ClientKey.isWellFormed(key)) {
            throw ApiProblem.badRequest(
                    key == null ? "missing_idempotency_key" : "invalid_idempotency_key",
                    "Idempotency-Key",
                    "Every POST needs an Idempotency-Key of 1–255 printable ASCII characters.");
        }
        ObjectNode body = JsonBodies.readObject(http, 4096);
        body.propertyNames().stream()
                .filter(name -> !FIELDS.contains(name))
                .findFirst()
                .ifPresent(name -> {
                    throw ApiProblem.badRequest("unknown_field", name, "Unknown field '" + name + "'.");
                });
        long amount = Amounts.parse(body.get("amount"), "amount", maxAmountMinor, true);
        String reason = reason(body.get("reason"));
        PaymentId payment = PaymentId.parse(id).orElseThrow(() -> ApiProblem.notFound("payment " + id));
        return switch (refunds.create(merchant, payment, key, amount, reason)) {
            case PaymentAnswer.Final accepted -> {
                var response = ResponseEntity.status(accepted.status()).contentType(MediaType.APPLICATION_JSON);
                if (accepted.replayed()) {
                    response.header("Idempotent-Replayed", "true");
                }
                yield response.body(accepted.body());
            }
            case PaymentAnswer.Refused r -> throw ApiProblem.of(HttpStatus.valueOf(r.status()), r.code(), r.detail());
            case PaymentAnswer.KeyReused k ->
                throw ApiProblem.of(
                        HttpStatus.UNPROCESSABLE_CONTENT,
                        "idempotency_key_reused",
                        "This Idempotency-Key was already used with different parameters.");
            case PaymentAnswer.InFlight i ->
                throw ApiProblem.withHeaders(
                        HttpStatus.CONFLICT,
                        "request_in_progress",
                        "A request with this Idempotency-Key is still being processed; retry with the same key.",
                        Map.of("Retry-After", Long.toString(i.retryAfter().toSeconds())));
            case PaymentAnswer.Processing p ->
                throw new IllegalStateException("a refund's client key is answered in phase 1: " + p);
            case PaymentAnswer.LiveAttemptExists l ->
                throw new IllegalStateException("a refund has no intent of its own: " + l);
        };
    }

    @GetMapping("/v1/refunds/{id}")
    ResponseEntity<String> get(MerchantId merchant, @PathVariable String id) {
        return RefundId.parse(id)
                .flatMap(refundId -> refunds.find(merchant, refundId))
                .map(r -> ResponseEntity.ok()
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(RefundJson.render(r)))
                .orElseThrow(() -> ApiProblem.notFound("refund " + id));
    }

    @GetMapping("/v1/payments/{id}/refunds")
    ResponseEntity<String> forPayment(MerchantId merchant, @PathVariable String id) {
        PaymentId payment = PaymentId.parse(id).orElseThrow(() -> ApiProblem.notFound("payment " + id));
        return ResponseEntity.ok()
                .contentType(MediaType.APPLICATION_JSON)
                .body(RefundJson.renderList(refunds.forPayment(merchant, payment)));
    }

    private static String reason(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isString() || node.stringValue().length() > MAX_REASON) {
            throw ApiProblem.badRequest(
                    "invalid_reason", "reason", "reason is a string of at most " + MAX_REASON + " characters.");
        }
        return node.stringValue();
    }
}
