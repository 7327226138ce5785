package dev.kopek.psp.simulator;

import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.IdempotencyContract;
import dev.kopek.psp.LookupResult;
import dev.kopek.psp.NotificationCheck;
import dev.kopek.psp.NotificationSignature;
import dev.kopek.psp.OneRetry;
import dev.kopek.psp.OutboundHeaders;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspHttp;
import dev.kopek.psp.PspNotification;
import dev.kopek.psp.PspProperties;
import dev.kopek.psp.PspRequest;
import dev.kopek.psp.SettlementReport;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hc.core5.http.ContentType;
import tools.jackson.databind.json.JsonMapper;

/**
 * The adapter for the bundled acquirer simulator. Timeouts: connect 500 ms, read 3 s; a transport failure
 * (timeout, reset, refused) is retried once with the same key after a jittered pause, if the budget allows; the
 * pair of tries is classified together.
 */
public final class SimulatorPaymentProvider implements PaymentProvider {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final URI base;
    private final PspProperties properties;
    private final PspHttp http;
    private final NotificationSignature signature;
    private final OutboundHeaders outboundHeaders;

    public SimulatorPaymentProvider(URI base, PspProperties properties, Clock clock) {
        this(base, properties, clock, OutboundHeaders.none());
    }

    public SimulatorPaymentProvider(URI base, PspProperties properties, Clock clock, OutboundHeaders outboundHeaders) {
        this.outboundHeaders = outboundHeaders;
        this.base = base;
        this.properties = properties;
        this.signature = new NotificationSignature(
                SimulatorNotifications.scheme(properties.webhookTolerance()),
                List.of(properties.webhookSecret()),
                clock);
        this.http = new PspHttp(properties.connectTimeout());
    }

    @Override
    public String name() {
        return "simulator";
    }

    @Override
    public boolean capturesInParts() {
        // The simulator keeps an authorization capturable after any partial capture that is not final.
        return true;
    }

    @Override
    public IdempotencyContract contract() {
        return new IdempotencyContract(
                properties.keyWindow(), "the key string, per simulator account", "409 request_in_progress", true);
    }

    @Override
    public ChargeOutcome execute(PspRequest request) {
        return OneRetry.send(properties, "psp " + request.operation(), timeout -> send(request, timeout));
    }

    @Override
    public ChargeOutcome executeOnce(PspRequest request) {
        try {
            return send(request, properties.readTimeout());
        } catch (IOException e) {
            return new ChargeOutcome.Unknown("transport failure: " + describe(e));
        }
    }

    @Override
    public LookupResult lookup(PspRequest request) {
        String path = switch (request) {
            case PspRequest.Charge c -> "/charges";
            case PspRequest.Capture c -> "/charges/" + encode(c.chargeReference()) + "/captures";
            case PspRequest.Release r -> "/charges/" + encode(r.chargeReference()) + "/void";
            case PspRequest.Refund r -> "/refunds";
        };
        return lookupAt(path, request.providerKey());
    }

    private ChargeOutcome send(PspRequest request, Duration timeout) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        String path = switch (request) {
            case PspRequest.Charge c -> {
                body.put("amount", c.amount().minor());
                body.put("currency", c.amount().currency().code());
                body.put("payment_method", c.paymentMethod());
                body.put("reference", c.reference());
                body.put("capture", c.capture());
                yield "/charges";
            }
            case PspRequest.Capture c -> {
                body.put("amount", c.amount().minor());
                body.put("final", c.finalCapture());
                yield "/charges/" + encode(c.chargeReference()) + "/captures";
            }
            case PspRequest.Release r -> "/charges/" + encode(r.chargeReference()) + "/void";
            case PspRequest.Refund r -> {
                body.put("charge_id", r.chargeReference());
                body.put("amount", r.amount().minor());
                yield "/refunds";
            }
        };
        return post(path, request.providerKey(), body, timeout);
    }

    private ChargeOutcome post(String path, String providerKey, Map<String, Object> body, Duration timeout)
            throws IOException {
        PspHttp.Answer answer = http.post(
                base.resolve(path),
                ContentType.APPLICATION_JSON,
                JSON.writeValueAsString(body),
                timeout,
                headers(providerKey));
        return SimulatorResponses.classify(answer.status(), answer.body());
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8);
    }

    private LookupResult lookupAt(String path, String providerKey) {
        URI uri = base.resolve(path + "?idempotency_key=" + encode(providerKey));
        try {
            PspHttp.Answer answer = get(uri);
            return switch (answer.status()) {
                case 200 -> lookedUp(answer.body());
                case 404 -> new LookupResult.NotFound();
                default -> new LookupResult.Inconclusive("lookup answered " + answer.status());
            };
        } catch (IOException e) {
            return new LookupResult.Inconclusive("lookup transport failure: " + describe(e));
        }
    }

    private static LookupResult lookedUp(String body) {
        ChargeOutcome outcome = SimulatorResponses.fromChargeBody(SimulatorResponses.parse(body), 200);
        return outcome instanceof ChargeOutcome.Unknown unknown
                ? new LookupResult.Inconclusive(unknown.reason())
                : new LookupResult.Found(outcome);
    }

    @Override
    public String notificationSignatureHeader() {
        return signature.header();
    }

    @Override
    public NotificationCheck verifyNotification(String signatureHeader, String body) {
        return signature.verify(signatureHeader, body, SimulatorNotifications::read);
    }

    @Override
    public PspNotification readVerifiedNotification(String body) {
        return switch (SimulatorNotifications.read(body)) {
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
        try {
            PspHttp.Answer answer = get(base.resolve("/_sim/settlements/" + date));
            if (answer.status() != 200) {
                throw new IllegalStateException("settlement report for " + date + " answered " + answer.status());
            }
            return new SettlementReport(name(), date, answer.body(), SettlementCsv.parse(answer.body()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("settlement report for " + date + " could not be fetched", e);
        }
    }

    @Override
    public Optional<String> providerKeyOf(String pspReference) {
        try {
            PspHttp.Answer answer = get(base.resolve("/charges/" + encode(pspReference)));
            if (answer.status() != 200) {
                return Optional.empty();
            }
            var key = SimulatorResponses.parse(answer.body()).get("idempotency_key");
            return key != null && key.isString() ? Optional.of(key.stringValue()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private PspHttp.Answer get(URI uri) throws IOException {
        return http.get(uri, properties.readTimeout(), outboundHeaders::addTo);
    }

    /** Every call carries the trace and request id; a money-moving call also its provider key. */
    private PspHttp.Headers headers(String providerKey) {
        return set -> {
            set.accept("Idempotency-Key", providerKey);
            outboundHeaders.addTo(set);
        };
    }

    private static String describe(IOException e) {
        return OneRetry.describe(e);
    }
}
