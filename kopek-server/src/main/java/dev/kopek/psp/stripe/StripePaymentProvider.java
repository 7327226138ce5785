package dev.kopek.psp.stripe;

import dev.kopek.money.Money;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.IdempotencyContract;
import dev.kopek.psp.LookupResult;
import dev.kopek.psp.NotificationCheck;
import dev.kopek.psp.NotificationSignature;
import dev.kopek.psp.OneRetry;
import dev.kopek.psp.OutboundHeaders;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspNotification;
import dev.kopek.psp.PspProperties;
import dev.kopek.psp.PspReferences;
import dev.kopek.psp.PspRequest;
import dev.kopek.psp.SettlementReport;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * The Stripe adapter: PaymentIntents created and confirmed in one call ({@code confirm=true}, automatic or manual
 * capture), captured with {@code amount_to_capture}, canceled, refunded (partially, several times) and retrieved.
 * Every POST carries {@code Idempotency-Key: kopek_<provider key>}; Stripe keeps keys for at least 24 hours, which
 * is the key window declared to Kopek (L6). Every PaymentIntent and refund carries the provider key in its metadata,
 * so a charge whose answer was lost can be found again. A transport failure is retried once with the same key
 * inside the budget, and the pair of tries is classified together (as for the simulator: a refusal of the retry
 * after a lost first try is unknown).
 */
public final class StripePaymentProvider implements PaymentProvider {

    static final Duration KEY_WINDOW = Duration.ofHours(24);

    private final StripeProperties stripe;
    private final PspProperties limits;
    private final HttpClient http;
    private final NotificationSignature signature;
    private final OutboundHeaders outboundHeaders;
    /** PaymentIntent ids of unknown outcomes by provider key: a lookup by id needs no search, even after a restart. */
    private final PspReferences references;

    public StripePaymentProvider(
            StripeProperties stripe,
            PspProperties limits,
            Clock clock,
            OutboundHeaders outboundHeaders,
            PspReferences references) {
        this.stripe = stripe;
        this.limits = limits;
        this.outboundHeaders = outboundHeaders;
        this.references = references;
        this.signature = new NotificationSignature(
                StripeNotifications.scheme(stripe.webhookTolerance()), stripe.webhookSecrets(), clock);
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(limits.connectTimeout())
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .build();
    }

    /** Remembering PaymentIntent ids in this process only (tests of the adapter alone). */
    public StripePaymentProvider(
            StripeProperties stripe, PspProperties limits, Clock clock, OutboundHeaders outboundHeaders) {
        this(stripe, limits, clock, outboundHeaders, PspReferences.inMemory());
    }

    @Override
    public String name() {
        return "stripe";
    }

    @Override
    public IdempotencyContract contract() {
        return new IdempotencyContract(
                KEY_WINDOW,
                "Idempotency-Key per Stripe account (kopek_ + provider key)",
                "409 idempotency_key_in_use",
                true);
    }

    @Override
    public boolean capturesInParts() {
        return stripe.multicapture();
    }

    /** Stripe's key for a Kopek provider key (at most 128 characters, so well inside Stripe's 255). */
    static String stripeKey(String providerKey) {
        return "kopek_" + providerKey;
    }

    @Override
    public ChargeOutcome execute(PspRequest request) {
        return withOneRetry(timeout -> send(request, timeout));
    }

    @Override
    public ChargeOutcome executeOnce(PspRequest request) {
        return once(timeout -> send(request, timeout));
    }

    private ChargeOutcome send(PspRequest request, Duration timeout) throws IOException {
        OptionalLong amount = StripeAmounts.toStripe(request.amount());
        if (amount.isEmpty()) {
            return unrepresentable(request.amount());
        }
        return switch (request) {
            case PspRequest.Charge charge -> sendCharge(charge, amount.getAsLong(), timeout);
            case PspRequest.Capture capture -> sendCapture(capture, amount.getAsLong(), timeout);
            case PspRequest.Release release -> {
                String intent = "/v1/payment_intents/" + Form.encode(release.chargeReference());
                HttpResponse<String> r = post(intent + "/cancel", release.providerKey(), new Form(), timeout);
                yield StripeResponses.intent(r.statusCode(), r.body(), StripeResponses.Expect.CANCEL);
            }
            case PspRequest.Refund refund -> {
                Form form = new Form()
                        .add("payment_intent", refund.chargeReference())
                        .add("amount", Long.toString(amount.getAsLong()))
                        .add("metadata[" + StripeNotifications.KEY_FIELD + "]", refund.providerKey());
                HttpResponse<String> r = post("/v1/refunds", refund.providerKey(), form, timeout);
                yield StripeResponses.refund(r.statusCode(), r.body());
            }
        };
    }

    private ChargeOutcome sendCharge(PspRequest.Charge request, long amount, Duration timeout) throws IOException {
        Form form = new Form()
                .add("amount", Long.toString(amount))
                .add("currency", StripeAmounts.currency(request.amount().currency()))
                .add("payment_method", request.paymentMethod())
                .add("payment_method_types[]", "card")
                .add("confirm", "true")
                .add("capture_method", request.capture() ? "automatic" : "manual")
                .add("expand[]", "latest_charge")
                .add("metadata[" + StripeNotifications.KEY_FIELD + "]", request.providerKey());
        if (request.reference() != null) {
            form.add("metadata[kopek_reference]", request.reference());
        }
        if (!request.capture() && stripe.multicapture()) {
            // Without it, Stripe refuses final_capture=false on this PaymentIntent for good.
            form.add("payment_method_options[card][request_multicapture]", "if_available");
        }
        if (!stripe.returnUrl().isEmpty()) {
            // With a return URL, 3-D Secure is a redirect Kopek can hand on (next_action.redirect_to_url).
            form.add("return_url", stripe.returnUrl());
        }
        HttpResponse<String> response = post("/v1/payment_intents", request.providerKey(), form, timeout);
        ChargeOutcome outcome =
                StripeResponses.intent(response.statusCode(), response.body(), StripeResponses.Expect.CHARGE);
        if (outcome instanceof ChargeOutcome.Unknown) {
            remember(request.providerKey(), response.body());
        }
        return outcome;
    }

    private ChargeOutcome sendCapture(PspRequest.Capture request, long amount, Duration timeout) throws IOException {
        if (!request.finalCapture() && !stripe.multicapture()) {
            return new ChargeOutcome.Failed("this Stripe account captures an authorization once: a capture"
                    + " that leaves the rest capturable needs multicapture (kopek.psp.stripe.multicapture)");
        }
        // The capture writes its own mark onto the PaymentIntent, in the same request: the lookup of a capture
        // whose answer was lost asks for that mark, never for what the PaymentIntent received in all.
        Form form = new Form()
                .add("amount_to_capture", Long.toString(amount))
                .add("metadata[" + StripeLookups.captureMark(request.providerKey()) + "]", Long.toString(amount));
        if (!request.finalCapture()) {
            form.add("final_capture", "false");
        }
        String intent = "/v1/payment_intents/" + Form.encode(request.chargeReference());
        HttpResponse<String> r = post(intent + "/capture", request.providerKey(), form, timeout);
        return StripeResponses.intent(r.statusCode(), r.body(), StripeResponses.Expect.CAPTURE);
    }

    private static ChargeOutcome unrepresentable(Money amount) {
        return new ChargeOutcome.Failed("stripe cannot carry " + amount + " exactly (its unit for "
                + amount.currency().code() + " is 10^-" + StripeAmounts.stripeExponent(amount.currency()) + ")");
    }

    @Override
    public LookupResult lookup(PspRequest request) {
        try {
            return switch (request) {
                case PspRequest.Charge charge -> lookupCharge(charge.providerKey());
                case PspRequest.Refund refund -> {
                    HttpResponse<String> r =
                            get("/v1/refunds?limit=100&payment_intent=" + Form.encode(refund.chargeReference()));
                    yield r.statusCode() == 200
                            ? StripeLookups.refund(StripeResponses.parse(r.body()), refund.providerKey())
                            : new LookupResult.Inconclusive("refund list answered " + r.statusCode());
                }
                case PspRequest.Capture capture ->
                    intentOf(capture.chargeReference(), pi -> StripeLookups.capture(pi, capture.providerKey()));
                case PspRequest.Release release -> intentOf(release.chargeReference(), StripeLookups::cancel);
            };
        } catch (IOException e) {
            return new LookupResult.Inconclusive("lookup transport failure: " + describe(e));
        }
    }

    private LookupResult lookupCharge(String providerKey) throws IOException {
        String known = references.find(providerKey).orElse(null);
        if (known != null) {
            HttpResponse<String> r = get("/v1/payment_intents/" + Form.encode(known) + "?expand[]=latest_charge");
            return r.statusCode() == 200
                    ? StripeLookups.charge(StripeResponses.parse(r.body()))
                    : new LookupResult.Inconclusive("retrieve answered " + r.statusCode());
        }
        HttpResponse<String> r = get("/v1/payment_intents/search?query="
                + Form.encode(StripeLookups.metadataQuery(providerKey)) + "&expand[]=data.latest_charge");
        return r.statusCode() == 200
                ? StripeLookups.searched(StripeResponses.parse(r.body()))
                : new LookupResult.Inconclusive("search answered " + r.statusCode());
    }

    private LookupResult intentOf(String chargeReference, Function<JsonNode, LookupResult> read) throws IOException {
        HttpResponse<String> r = get("/v1/payment_intents/" + Form.encode(chargeReference));
        return r.statusCode() == 200
                ? read.apply(StripeResponses.parse(r.body()))
                : new LookupResult.Inconclusive("retrieve answered " + r.statusCode());
    }

    @Override
    public String notificationSignatureHeader() {
        return signature.header();
    }

    @Override
    public NotificationCheck verifyNotification(String signatureHeader, String body) {
        return signature.verify(signatureHeader, body, StripeNotifications::read);
    }

    @Override
    public PspNotification readVerifiedNotification(String body) {
        return readStored(body);
    }

    /** Reading needs no secret: the signature was checked when the notification arrived. */
    static PspNotification readStored(String body) {
        return switch (StripeNotifications.read(body)) {
            case NotificationCheck.Valid v -> v.notification();
            case NotificationCheck.Invalid i ->
                throw new IllegalStateException("a stored notification no longer reads: " + i.reason());
            case NotificationCheck.Malformed m ->
                throw new IllegalStateException(
                        "a stored notification no longer reads: " + m.field() + " " + m.reason());
        };
    }

    @Override
    public SettlementReport settlementReport(LocalDate date) {
        return new StripeSettlement(this::get).report(name(), date);
    }

    @Override
    public Optional<String> providerKeyOf(String pspReference) {
        String path = pspReference.startsWith("re_") ? "/v1/refunds/" : "/v1/payment_intents/";
        try {
            HttpResponse<String> r = get(path + Form.encode(pspReference));
            return r.statusCode() == 200
                    ? Optional.ofNullable(StripeResponses.text(
                            StripeResponses.parse(r.body()).path("metadata"), StripeNotifications.KEY_FIELD))
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private ChargeOutcome once(OneRetry.Call call) {
        try {
            return call.send(limits.readTimeout());
        } catch (IOException e) {
            return new ChargeOutcome.Unknown("transport failure: " + describe(e));
        }
    }

    private ChargeOutcome withOneRetry(OneRetry.Call call) {
        return OneRetry.send(limits, "stripe", call);
    }

    private void remember(String providerKey, String body) {
        JsonNode json = StripeResponses.parse(body);
        String id = "payment_intent".equals(StripeResponses.text(json, "object"))
                ? StripeResponses.text(json, "id")
                : StripeResponses.text(json.path("error").path("payment_intent"), "id");
        if (id != null) {
            references.remember(name(), providerKey, id);
        }
    }

    private HttpResponse<String> post(String path, String providerKey, Form form, Duration timeout) throws IOException {
        HttpRequest.Builder request = authorized(path)
                .timeout(timeout)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Idempotency-Key", stripeKey(providerKey))
                .POST(HttpRequest.BodyPublishers.ofString(form.encoded()));
        return exchange(request);
    }

    HttpResponse<String> get(String pathAndQuery) throws IOException {
        return exchange(authorized(pathAndQuery).timeout(limits.readTimeout()).GET());
    }

    private HttpRequest.Builder authorized(String pathAndQuery) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(
                        URI.create(stripe.apiBase().toString().replaceAll("/+$", "") + pathAndQuery))
                .header("Authorization", "Bearer " + stripe.secretKey());
        if (!stripe.apiVersion().isBlank()) {
            builder.header("Stripe-Version", stripe.apiVersion());
        }
        return builder;
    }

    private HttpResponse<String> exchange(HttpRequest.Builder request) throws IOException {
        outboundHeaders.addTo(request::setHeader);
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for stripe", e);
        }
    }

    static String describe(IOException e) {
        return OneRetry.describe(e);
    }
}
