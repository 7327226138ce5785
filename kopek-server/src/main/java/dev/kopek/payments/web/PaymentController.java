package dev.kopek.payments.web;

import dev.kopek.idempotency.ClientKey;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.PaymentAnswer;
import dev.kopek.payments.PaymentJson;
import dev.kopek.payments.PaymentOperations;
import dev.kopek.payments.PaymentService;
import dev.kopek.payments.domain.PaymentRequest;
import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import dev.kopek.platform.JsonBodies;
import dev.kopek.platform.ProblemCode;
import dev.kopek.platform.ProblemCodes;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Audience(Audience.Kind.MERCHANT)
@RequestMapping("/v1/payments")
class PaymentController {

    static final int MAX_BODY_BYTES = 16 * 1024;

    private final PaymentService payments;
    private final PaymentOperations operations;
    private final PaymentRequestParser parser;
    private final long maxAmountMinor;

    PaymentController(
            PaymentService payments,
            PaymentOperations operations,
            @Value("${kopek.payments.max-amount-minor:100000000000}") long max) {
        this.payments = payments;
        this.operations = operations;
        this.parser = new PaymentRequestParser(max);
        this.maxAmountMinor = max;
    }

    @PostMapping
    @ProblemCodes(
            jsonBody = true,
            value = {
                ProblemCode.MISSING_FIELD,
                ProblemCode.INVALID_AMOUNT,
                ProblemCode.AMOUNT_TOO_LARGE,
                ProblemCode.INVALID_CURRENCY,
                ProblemCode.INVALID_REFERENCE,
                ProblemCode.INVALID_PAYMENT_METHOD,
                ProblemCode.INVALID_CAPTURE_METHOD,
                ProblemCode.INVALID_DESCRIPTION,
                ProblemCode.INVALID_METADATA,
                ProblemCode.INTENT_HAS_LIVE_ATTEMPT,
                ProblemCode.PSP_UNAVAILABLE
            })
    ResponseEntity<String> create(
            MerchantId merchant,
            @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey,
            HttpServletRequest http) {
        requireKey(idempotencyKey);
        PaymentRequest request = parser.parse(JsonBodies.readObject(http, MAX_BODY_BYTES));
        return respond(payments.create(merchant, idempotencyKey, request));
    }

    @PostMapping("/{id}/capture")
    @ProblemCodes(
            jsonBody = true,
            value = {
                ProblemCode.INVALID_AMOUNT,
                ProblemCode.AMOUNT_TOO_LARGE,
                ProblemCode.INVALID_FINAL,
                ProblemCode.PAYMENT_NOT_AUTHORIZED,
                ProblemCode.NOTHING_TO_CAPTURE,
                ProblemCode.CAPTURE_FINALIZED,
                ProblemCode.CAPTURE_IN_PROGRESS,
                ProblemCode.AMOUNT_EXCEEDS_CAPTURABLE,
                ProblemCode.PARTIAL_CAPTURE_UNSUPPORTED,
                ProblemCode.AUTHORIZATION_VOIDED,
                ProblemCode.AUTHORIZATION_EXPIRED,
                ProblemCode.PAYMENT_REFUNDED,
                ProblemCode.CAPTURE_DECLINED
            })
    ResponseEntity<String> capture(
            MerchantId merchant,
            @PathVariable String id,
            @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey,
            HttpServletRequest http) {
        String key = requireKey(idempotencyKey);
        CaptureRequest request = CaptureRequest.parse(JsonBodies.readOptionalObject(http, 1024), maxAmountMinor);
        PaymentId paymentId = PaymentId.parse(id).orElseThrow(() -> ApiProblem.notFound("payment " + id));
        return respond(operations.capture(merchant, paymentId, key, request.amount(), request.finalCapture()));
    }

    @PostMapping("/{id}/void")
    @ProblemCodes(
            jsonBody = true,
            value = {
                ProblemCode.PAYMENT_NOT_AUTHORIZED,
                ProblemCode.ALREADY_CAPTURED,
                ProblemCode.AUTHORIZATION_CLOSED,
                ProblemCode.AUTHORIZATION_VOIDED,
                ProblemCode.AUTHORIZATION_EXPIRED,
                ProblemCode.PAYMENT_REFUNDED,
                ProblemCode.VOID_DECLINED
            })
    ResponseEntity<String> voidAuthorization(
            MerchantId merchant,
            @PathVariable String id,
            @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey,
            HttpServletRequest http) {
        String key = requireKey(idempotencyKey);
        var body = JsonBodies.readOptionalObject(http, 1024);
        body.propertyNames().stream().findFirst().ifPresent(name -> {
            throw ApiProblem.badRequest("unknown_field", name, "A void takes no fields.");
        });
        PaymentId paymentId = PaymentId.parse(id).orElseThrow(() -> ApiProblem.notFound("payment " + id));
        return respond(operations.voidAuthorization(merchant, paymentId, key));
    }

    static String requireKey(String idempotencyKey) {
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

    static ResponseEntity<String> respond(PaymentAnswer answer) {
        return switch (answer) {
            case PaymentAnswer.Refused r -> throw ApiProblem.of(HttpStatus.valueOf(r.status()), r.code(), r.detail());
            case PaymentAnswer.Final f -> {
                var response = ResponseEntity.status(f.status())
                        .contentType(
                                f.status() >= 400 ? MediaType.APPLICATION_PROBLEM_JSON : MediaType.APPLICATION_JSON);
                if (f.replayed()) {
                    response.header("Idempotent-Replayed", "true");
                }
                yield response.body(f.body());
            }
            case PaymentAnswer.Processing p ->
                ResponseEntity.status(HttpStatus.ACCEPTED)
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(PaymentJson.render(p.payment()));
            case PaymentAnswer.InFlight i ->
                throw ApiProblem.withHeaders(
                        HttpStatus.CONFLICT,
                        "request_in_progress",
                        "A request with this Idempotency-Key is still being processed. This is not a decline: retry "
                                + "with the same key after Retry-After seconds.",
                        Map.of("Retry-After", Long.toString(i.retryAfter().toSeconds())));
            case PaymentAnswer.KeyReused k ->
                throw ApiProblem.of(
                        HttpStatus.UNPROCESSABLE_CONTENT,
                        "idempotency_key_reused",
                        "This Idempotency-Key was already used with different parameters; use a new key for a new payment.");
            case PaymentAnswer.LiveAttemptExists l ->
                throw ApiProblem.of(
                        HttpStatus.CONFLICT,
                        "intent_has_live_attempt",
                        "Payment intent '" + l.reference() + "' already has an attempt that "
                                + "is processing or paid; look it up instead of paying again.");
        };
    }

    @GetMapping("/{id}")
    ResponseEntity<String> get(MerchantId merchant, @PathVariable String id) {
        return PaymentId.parse(id)
                .flatMap(paymentId -> payments.find(merchant, paymentId))
                .map(p -> ResponseEntity.ok()
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(PaymentJson.render(p)))
                .orElseThrow(() -> ApiProblem.notFound("payment " + id));
    }

    @GetMapping
    @ProblemCodes(ProblemCode.INVALID_REFERENCE)
    ResponseEntity<String> byReference(MerchantId merchant, @RequestParam(required = false) String reference) {
        if (reference == null || reference.isEmpty() || reference.length() > PaymentRequestParser.MAX_REFERENCE) {
            throw ApiProblem.badRequest(
                    "invalid_reference",
                    "reference",
                    "Query by ?reference= with 1–" + PaymentRequestParser.MAX_REFERENCE + " characters.");
        }
        return ResponseEntity.ok()
                .contentType(MediaType.APPLICATION_JSON)
                .body(PaymentJson.renderList(payments.findByReference(merchant, reference)));
    }
}
