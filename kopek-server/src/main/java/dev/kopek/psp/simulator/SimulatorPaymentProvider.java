package dev.kopek.psp.simulator;

import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.ChargeRequest;
import dev.kopek.psp.IdempotencyContract;
import dev.kopek.psp.LookupResult;
import dev.kopek.psp.OneRetry;
import dev.kopek.psp.OperationRequest;
import dev.kopek.psp.OutboundHeaders;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspProperties;
import dev.kopek.psp.SettlementReport;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
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
    private final HttpClient http;
    private final SimulatorNotifications notifications;
    private final OutboundHeaders outboundHeaders;

    public SimulatorPaymentProvider(URI base, PspProperties properties, java.time.Clock clock) {
        this(base, properties, clock, OutboundHeaders.none());
    }

    public SimulatorPaymentProvider(URI base, PspProperties properties, java.time.Clock clock,
            OutboundHeaders outboundHeaders) {
        this.outboundHeaders = outboundHeaders;
        this.base = base;
        this.properties = properties;
        this.notifications = new SimulatorNotifications(properties.webhookSecret(), properties.webhookTolerance(),
                clock);
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(properties.connectTimeout())
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .build();
    }

    @Override
    public String name() {
        return "simulator";
    }

    @Override
    public IdempotencyContract contract() {
        return new IdempotencyContract(properties.keyWindow(), "the key string, per simulator account",
                "409 request_in_progress", true);
    }

    @Override
    public ChargeOutcome charge(ChargeRequest request) {
        return withOneRetry(timeout -> send(request, timeout));
    }

    @Override
    public ChargeOutcome execute(OperationRequest request) {
        return withOneRetry(timeout -> send(request, timeout));
    }

    @Override
    public ChargeOutcome executeOnce(OperationRequest request) {
        try {
            return send(request, properties.readTimeout());
        } catch (IOException e) {
            return new ChargeOutcome.Unknown("transport failure: " + describe(e));
        }
    }

    @Override
    public LookupResult lookup(OperationRequest request) {
        String path = switch (request.kind()) {
            case CAPTURE -> "/charges/" + encode(request.chargeReference()) + "/captures";
            case VOID -> "/charges/" + encode(request.chargeReference()) + "/void";
            case REFUND -> "/refunds";
        };
        return lookupAt(path, request.providerKey());
    }


    private ChargeOutcome withOneRetry(OneRetry.Call call) {
        return OneRetry.send(properties, "psp charge", call);
    }

    @Override
    public ChargeOutcome chargeOnce(ChargeRequest request) {
        try {
            return send(request, properties.readTimeout());
        } catch (IOException e) {
            return new ChargeOutcome.Unknown("transport failure: " + describe(e));
        }
    }

    private ChargeOutcome send(ChargeRequest request, Duration timeout) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("amount", request.amount().minor());
        body.put("currency", request.amount().currency().code());
        body.put("payment_method", request.paymentMethod());
        body.put("reference", request.reference());
        body.put("capture", request.capture());
        return post("/charges", request.providerKey(), body, timeout);
    }

    private ChargeOutcome send(OperationRequest request, Duration timeout) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        String path = switch (request.kind()) {
            case CAPTURE -> {
                body.put("amount", request.amount().minor());
                body.put("final", request.finalCapture());
                yield "/charges/" + encode(request.chargeReference()) + "/captures";
            }
            case VOID -> "/charges/" + encode(request.chargeReference()) + "/void";
            case REFUND -> {
                body.put("charge_id", request.chargeReference());
                body.put("amount", request.amount().minor());
                yield "/refunds";
            }
        };
        return post(path, request.providerKey(), body, timeout);
    }

    private ChargeOutcome post(String path, String providerKey, Map<String, Object> body, Duration timeout)
            throws IOException {
        HttpRequest http = HttpRequest.newBuilder(base.resolve(path))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", providerKey)
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .build();
        HttpResponse<String> response = exchange(http);
        return SimulatorResponses.classify(response.statusCode(), response.body());
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8);
    }

    @Override
    public LookupResult lookup(String providerKey) {
        return lookupAt("/charges", providerKey);
    }

    private LookupResult lookupAt(String path, String providerKey) {
        URI uri = base.resolve(path + "?idempotency_key=" + encode(providerKey));
        try {
            HttpResponse<String> response = exchange(HttpRequest.newBuilder(uri)
                    .timeout(properties.readTimeout()).GET().build());
            return switch (response.statusCode()) {
                case 200 -> lookedUp(response.body());
                case 404 -> new LookupResult.NotFound();
                default -> new LookupResult.Inconclusive("lookup answered " + response.statusCode());
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
        return SimulatorNotifications.HEADER;
    }

    @Override
    public dev.kopek.psp.NotificationCheck verifyNotification(String signatureHeader, String body) {
        return notifications.verify(signatureHeader, body);
    }

    @Override
    public dev.kopek.psp.PspNotification readVerifiedNotification(String body) {
        return switch (SimulatorNotifications.read(body)) {
            case dev.kopek.psp.NotificationCheck.Valid v -> v.notification();
            case dev.kopek.psp.NotificationCheck.Invalid i -> throw new IllegalStateException(
                    "a stored notification no longer reads: " + i.reason());
            case dev.kopek.psp.NotificationCheck.Malformed m -> throw new IllegalStateException(
                    "a stored notification no longer reads: " + m.field() + " " + m.reason());
        };
    }

    @Override
    public SettlementReport settlementReport(java.time.LocalDate date) {
        try {
            HttpResponse<String> response = exchange(HttpRequest.newBuilder(base.resolve("/_sim/settlements/" + date))
                    .timeout(properties.readTimeout()).GET().build());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("settlement report for " + date + " answered " + response.statusCode());
            }
            return new SettlementReport(name(), date, response.body(), SettlementCsv.parse(response.body()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("settlement report for " + date + " could not be fetched", e);
        }
    }

    @Override
    public java.util.Optional<String> providerKeyOf(String pspReference) {
        try {
            HttpResponse<String> response = exchange(HttpRequest.newBuilder(
                    base.resolve("/charges/" + encode(pspReference))).timeout(properties.readTimeout()).GET().build());
            if (response.statusCode() != 200) {
                return java.util.Optional.empty();
            }
            var key = SimulatorResponses.parse(response.body()).get("idempotency_key");
            return key != null && key.isString() ? java.util.Optional.of(key.stringValue()) : java.util.Optional.empty();
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }

    private HttpResponse<String> exchange(HttpRequest request) throws IOException {
        HttpRequest.Builder traced = HttpRequest.newBuilder(request, (name, value) -> true);
        outboundHeaders.addTo(traced::setHeader);
        try {
            return http.send(traced.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the psp", e);
        }
    }

    private static String describe(IOException e) {
        return OneRetry.describe(e);
    }
}
