package dev.kopek.platform;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The one catalogue of problem {@code code}s: every code Kopek can answer, what it means and what the client should
 * do. {@code GET /problems/{code}} (every problem's {@code type}) serves these entries and the OpenAPI document
 * lists them; {@code ProblemCatalogueTest} scans the code for every code it can produce and fails when one is
 * missing here.
 */
public enum ProblemCode {

    // ---- retry contract and idempotency
    REQUEST_IN_PROGRESS(
            Action.RETRY_SAME_KEY,
            "A request with this Idempotency-Key is still running. This is not a "
                    + "decline and not a failure: the first request will finish.",
            409),
    IDEMPOTENCY_KEY_REUSED(
            Action.FIX_REQUEST,
            "This Idempotency-Key was already used with different parameters. "
                    + "A key names one operation; a different operation needs a new key. Nothing was done.",
            422),
    MISSING_IDEMPOTENCY_KEY(
            Action.FIX_REQUEST,
            "Every POST needs an Idempotency-Key header, the same for every " + "retry of one operation.",
            400),
    INVALID_IDEMPOTENCY_KEY(Action.FIX_REQUEST, "The Idempotency-Key must be 1–255 printable ASCII characters.", 400),
    RATE_LIMITED(
            Action.WAIT_THEN_RETRY,
            "Too many requests for this merchant (or for Kopek). The request did "
                    + "nothing and stored nothing; its Idempotency-Key was not used.",
            429),
    PSP_UNAVAILABLE(
            Action.RETRY_SAME_KEY,
            "The PSP is failing and its circuit is open: the payment was not "
                    + "attempted and nothing was stored. This is not a decline; retry with the same Idempotency-Key after "
                    + "Retry-After seconds.",
            503),

    // ---- credentials and access
    MISSING_API_KEY(
            Action.FIX_REQUEST,
            "The route needs credentials: Authorization: Bearer <API key or admin " + "token>.",
            401),
    INVALID_API_KEY(Action.FIX_REQUEST, "The API key is unknown or revoked.", 401),
    INVALID_ADMIN_TOKEN(Action.FIX_REQUEST, "The admin token is unknown or revoked.", 401),
    ROUTE_CLOSED(
            Action.CONTACT_SUPPORT,
            "This route is closed: it declares no audience (a defect in Kopek), or "
                    + "the credentials are for another audience.",
            403),
    REQUEST_REJECTED(
            Action.FIX_REQUEST,
            "The request line or a header is malformed or unusual (encoded slashes, "
                    + "dot segments, control characters, an unusual method) and was refused before routing.",
            400),
    CORS_NOT_ALLOWED(
            Action.FIX_REQUEST,
            "A CORS preflight: Kopek's API is called from servers with secret keys, "
                    + "so no browser origin may call it. Call it from your backend.",
            403),
    INVALID_SIGNATURE(
            Action.FIX_REQUEST,
            "A PSP notification's signature is missing, wrong or outside the time " + "tolerance; nothing was stored.",
            401),

    // ---- request syntax
    INVALID_JSON(Action.FIX_REQUEST, "The body is not one JSON object (or has duplicate keys, or is too deep).", 400),
    UNREADABLE_BODY(Action.FIX_REQUEST, "The body could not be read completely.", 400),
    INVALID_ENCODING(Action.FIX_REQUEST, "The body or query is not valid UTF-8, or a query value has no name.", 400),
    INVALID_CHARACTERS(Action.FIX_REQUEST, "A value contains control or otherwise refused characters.", 400),
    INVALID_QUERY(Action.FIX_REQUEST, "The query string is malformed or has an unknown or repeated parameter.", 400),
    UNKNOWN_FIELD(Action.FIX_REQUEST, "The body has a field this route does not take (see field).", 400),
    MISSING_FIELD(Action.FIX_REQUEST, "A required field is missing (see field).", 400),
    BODY_TOO_LARGE(Action.FIX_REQUEST, "The body is larger than this route accepts.", 400, 413),
    UNSUPPORTED_MEDIA_TYPE(Action.FIX_REQUEST, "Send the body as Content-Type: application/json.", 415),
    CARD_DATA_NOT_ACCEPTED(
            Action.FIX_REQUEST,
            "The request contains what looks like a card number. Kopek never "
                    + "takes card data: send the PSP's payment method token instead. The value was not stored or logged.",
            400),

    // ---- field values
    INVALID_AMOUNT(Action.FIX_REQUEST, "amount must be a positive whole number of minor units.", 400),
    AMOUNT_TOO_LARGE(Action.FIX_REQUEST, "amount is above the largest amount Kopek accepts.", 400),
    INVALID_CURRENCY(
            Action.FIX_REQUEST, "currency must be an ISO 4217 code with minor units, such as RUB or EUR.", 400),
    INVALID_REFERENCE(Action.FIX_REQUEST, "reference must be 1–64 characters.", 400),
    INVALID_PAYMENT_METHOD(Action.FIX_REQUEST, "payment_method must be a PSP token such as pm_ok.", 400),
    INVALID_CAPTURE_METHOD(Action.FIX_REQUEST, "capture_method is automatic or manual.", 400),
    INVALID_DESCRIPTION(Action.FIX_REQUEST, "description must be a string of at most 1000 characters.", 400),
    INVALID_METADATA(Action.FIX_REQUEST, "metadata is an object of at most 20 string values.", 400),
    INVALID_FINAL(Action.FIX_REQUEST, "final must be true or false.", 400),
    INVALID_REASON(Action.FIX_REQUEST, "reason must be a string within the route's length limit.", 400),
    INVALID_LIMIT(Action.FIX_REQUEST, "limit must be a whole number within the route's page size.", 400),
    INVALID_CURSOR(Action.FIX_REQUEST, "The cursor was not one Kopek gave out; pass back next_cursor unchanged.", 400),
    INVALID_PAYMENT_ID(Action.FIX_REQUEST, "payment_id is not a payment id (pay_…).", 400),
    INVALID_URL(Action.FIX_REQUEST, "url must be an absolute https URL of at most 2048 characters.", 400),
    INSECURE_URL(
            Action.FIX_REQUEST,
            "Webhook URLs must be https; plain http is accepted only to a loopback host " + "in demo mode.",
            400),
    URL_NOT_ALLOWED(
            Action.FIX_REQUEST,
            "The URL points at an internal address (loopback, private, link-local, "
                    + "metadata); webhooks go to public addresses only.",
            400),
    INVALID_EVENT_TYPES(Action.FIX_REQUEST, "event_types must be a non-empty list of event types or \"*\".", 400),
    UNKNOWN_EVENT_TYPE(
            Action.FIX_REQUEST,
            "An event type is not one Kopek emits (see the webhooks of the OpenAPI " + "document).",
            400),
    INVALID_NAME(Action.FIX_REQUEST, "name is missing or not within the allowed characters and length.", 400),
    INVALID_RATE_LIMIT(Action.FIX_REQUEST, "A rate limit needs per_second > 0 and burst >= 1 within the maxima.", 400),
    INVALID_BPS(Action.FIX_REQUEST, "bps must be a whole number within the allowed range.", 400),
    INVALID_FIXED_MINOR(Action.FIX_REQUEST, "fixed_minor must be a whole number within the allowed range.", 400),
    INVALID_DATE(Action.FIX_REQUEST, "date must be an ISO-8601 date (YYYY-MM-DD).", 400),
    INVALID_DECISION(Action.FIX_REQUEST, "decision is not one that applies to a review item.", 400),
    INVALID_PSP_REFERENCE(Action.FIX_REQUEST, "psp_reference is required for this decision: 1–128 characters.", 400),
    INVALID_CAPTURE_BEFORE(Action.FIX_REQUEST, "capture_before must be an ISO-8601 instant.", 400),
    INVALID_NOTE(Action.FIX_REQUEST, "note must be a string of at most 2000 characters.", 400),
    INVALID_PROVIDER(Action.FIX_REQUEST, "provider is the PSP a merchant's payments go to: simulator or stripe.", 400),
    INVALID_SECRET_KEY(
            Action.FIX_REQUEST,
            "secret_key is the merchant's Stripe secret or restricted key (sk_… or "
                    + "rk_…, letters, digits and _, at most 255 characters); the simulator takes none.",
            400),
    INVALID_WEBHOOK_SECRETS(
            Action.FIX_REQUEST,
            "webhook_secrets is a list of 1–5 Stripe signing secrets (whsec_…, "
                    + "at most 255 characters each); the simulator takes none.",
            400),
    PSP_NOT_AVAILABLE(
            Action.FIX_REQUEST,
            "This Kopek does not run that PSP (the simulator only runs where "
                    + "KOPEK_PSP_PROVIDER=simulator); nothing was changed.",
            422),
    PSP_CHANGE_REFUSED(
            Action.CONTACT_SUPPORT,
            "The merchant already has payments at its current PSP, which "
                    + "captures, refunds and lookups must keep reaching; its credentials may change, its PSP may not.",
            409),
    INVALID_NOTIFICATION(
            Action.CONTACT_SUPPORT, "A PSP notification is signed but malformed; nothing was stored.", 400),
    ACTOR_FROM_CREDENTIALS(
            Action.FIX_REQUEST,
            "resolved_by is not accepted: the resolver is the admin identity " + "that sends the request.",
            400),

    // ---- state of a payment, capture, void or refund
    INTENT_HAS_LIVE_ATTEMPT(
            Action.LOOK_UP,
            "This reference already has a payment that is processing or paid. "
                    + "Look it up (GET /v1/payments?reference=) instead of paying again.",
            409),
    PAYMENT_NOT_AUTHORIZED(Action.LOOK_UP, "Only an authorized payment can be captured or voided.", 409),
    NOTHING_TO_CAPTURE(Action.LOOK_UP, "Nothing remains to capture on this payment.", 409),
    CAPTURE_FINALIZED(Action.LOOK_UP, "A final capture closed this authorization.", 409),
    CAPTURE_IN_PROGRESS(
            Action.WAIT_THEN_RETRY,
            "Another capture of this payment is in flight; retry when it is " + "settled (watch the capture.* events).",
            409),
    AMOUNT_EXCEEDS_CAPTURABLE(Action.FIX_REQUEST, "The amount is more than what remains capturable.", 409),
    PARTIAL_CAPTURE_UNSUPPORTED(
            Action.FIX_REQUEST,
            "The PSP account of this payment captures an authorization once: capture all that remains, or send"
                    + " \"final\": true to capture the amount and release the rest. Nothing was done.",
            422),
    ALREADY_CAPTURED(Action.LOOK_UP, "A payment with a capture cannot be voided; refund it instead.", 409),
    AUTHORIZATION_CLOSED(Action.LOOK_UP, "This authorization can no longer be voided.", 409),
    AUTHORIZATION_VOIDED(Action.LOOK_UP, "This authorization was voided.", 409),
    AUTHORIZATION_EXPIRED(Action.LOOK_UP, "This authorization expired before it was captured.", 409),
    PAYMENT_REFUNDED(Action.LOOK_UP, "This payment was refunded in full.", 409),
    PAYMENT_NOT_CAPTURED(Action.LOOK_UP, "Only captured money can be refunded.", 409),
    AMOUNT_EXCEEDS_REFUNDABLE(
            Action.FIX_REQUEST,
            "The amount is more than what remains refundable (captured minus " + "refunded and pending refunds).",
            409),
    CAPTURE_DECLINED(Action.LOOK_UP, "The PSP refused the capture; nothing was captured.", 402),
    VOID_DECLINED(Action.LOOK_UP, "The PSP refused the void; the authorization stands.", 402),

    BALANCES_BEHIND(
            Action.WAIT_THEN_RETRY,
            "The balance cannot be read exactly right now: the ledger's projection is behind (an operator is alerted)."
                    + " Payments are not affected; retry after Retry-After seconds.",
            503),

    // ---- webhook endpoints
    ENDPOINT_LIMIT_REACHED(
            Action.FIX_REQUEST, "A merchant may have only so many webhook endpoints; delete one " + "first.", 409),
    ENDPOINT_NOT_ENABLED(
            Action.FIX_REQUEST, "This webhook endpoint is disabled; create a new one to receive " + "events.", 409),

    // ---- operations and admin
    NAME_TAKEN(Action.FIX_REQUEST, "An admin identity with this name exists.", 409),
    BOOTSTRAP_IDENTITY(
            Action.FIX_REQUEST,
            "The bootstrap identity (KOPEK_ADMIN_TOKEN) cannot be revoked through "
                    + "the API; change the setting instead.",
            409),
    REVIEW_NOT_OPEN(Action.LOOK_UP, "This review item is already resolved.", 409),
    BREAK_NOT_OPEN(Action.LOOK_UP, "This settlement break is already cleared or resolved.", 409),
    DECISION_NOT_APPLICABLE(Action.FIX_REQUEST, "This decision does not apply to this review item's subject.", 409),
    DATE_NOT_CLOSED(Action.WAIT_THEN_RETRY, "The settlement date is not closed yet; run it after the day ended.", 422),
    LEDGER_REPAIR_REFUSED(
            Action.LOOK_UP,
            "The ledger projection was not repaired, and nothing changed: a balance exceeds its entries (written outside"
                    + " the projector), or a transaction older than the projection's mark is still open.",
            409),
    SETTLEMENT_FILE_UNAVAILABLE(
            Action.WAIT_THEN_RETRY, "The PSP's settlement file could not be fetched; run it " + "again later.", 502),

    // ---- answers named by their HTTP status alone (the web server's and the framework's refusals)
    NOT_FOUND(Action.FIX_REQUEST, "No such resource, or not this merchant's: ids are per merchant.", 404),
    BAD_REQUEST(Action.FIX_REQUEST, "The request is malformed.", 400),
    UNAUTHORIZED(Action.FIX_REQUEST, "The request needs valid credentials.", 401),
    FORBIDDEN(Action.FIX_REQUEST, "These credentials may not use this route.", 403),
    METHOD_NOT_ALLOWED(Action.FIX_REQUEST, "This route does not take this HTTP method.", 405),
    NOT_ACCEPTABLE(
            Action.FIX_REQUEST,
            "Kopek answers application/json (problems: application/problem+json); " + "accept it.",
            406),
    REQUEST_TIMEOUT(Action.RETRY_SAME_KEY, "The request was not received completely in time.", 408),
    CONFLICT(Action.LOOK_UP, "The request conflicts with the resource's state.", 409),
    LENGTH_REQUIRED(Action.FIX_REQUEST, "Send a Content-Length (or a chunked body).", 411),
    URI_TOO_LONG(Action.FIX_REQUEST, "The request target is too long.", 414),
    EXPECTATION_FAILED(Action.FIX_REQUEST, "The Expect header is not supported.", 417),
    TOO_MANY_REQUESTS(Action.WAIT_THEN_RETRY, "Too many requests; wait Retry-After seconds.", 429),
    HEADERS_TOO_LARGE(Action.FIX_REQUEST, "The request's headers are too large.", 431),
    NOT_IMPLEMENTED(Action.FIX_REQUEST, "This is not something Kopek does; retrying will not change it.", 501),
    DATABASE_UNAVAILABLE(
            Action.RETRY_SAME_KEY,
            "Kopek could not get a database connection in time (the pool is "
                    + "exhausted under load, or PostgreSQL is restarting). Nothing was written by this request; retry with the "
                    + "same Idempotency-Key after Retry-After seconds.",
            503),
    SERVICE_UNAVAILABLE(
            Action.RETRY_SAME_KEY,
            "Kopek cannot serve right now (its database is unreachable, or it "
                    + "is shutting down). Nothing is known to have failed.",
            503),
    HTTP_VERSION_NOT_SUPPORTED(Action.FIX_REQUEST, "Use HTTP/1.1 (or HTTP/2).", 400, 505),
    INTERNAL_ERROR(
            Action.RETRY_SAME_KEY,
            "Kopek failed unexpectedly; it has been logged. The operation may or may "
                    + "not have happened: retry with the same key (the answer will say), and quote request_id to support "
                    + "if it persists.",
            500);

    /** What a client should do about a problem; the same advice for every code with this action. */
    public enum Action {
        RETRY_SAME_KEY("Retry the same request with the same Idempotency-Key (after Retry-After seconds when "
                + "given), with backoff, inside your time budget. Never mint a new key for a retry."),
        WAIT_THEN_RETRY("Wait (Retry-After seconds when given, or until the state changes), then send the same "
                + "request again; nothing was done."),
        FIX_REQUEST("Fix the request; sending it again unchanged gets the same answer. Nothing was done."),
        LOOK_UP("Look the resource up (GET it, or read its events): its state decides what is possible now. "
                + "Nothing was done."),
        CONTACT_SUPPORT("Contact Kopek's operators with the request_id of the answer.");

        private final String advice;

        Action(String advice) {
            this.advice = advice;
        }

        public String advice() {
            return advice;
        }

        public String apiName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final Map<String, ProblemCode> BY_CODE =
            Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(ProblemCode::code, Function.identity()));

    private final Action action;
    private final String meaning;
    private final List<Integer> statuses;

    ProblemCode(Action action, String meaning, int... statuses) {
        this.action = action;
        this.meaning = meaning;
        this.statuses = Arrays.stream(statuses).boxed().toList();
    }

    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    public Action action() {
        return action;
    }

    public String meaning() {
        return meaning;
    }

    /** The HTTP statuses this code is answered with. */
    public List<Integer> statuses() {
        return statuses;
    }

    public static Optional<ProblemCode> find(String code) {
        return Optional.ofNullable(code).map(BY_CODE::get);
    }
}
