package dev.kopek.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.jdbc.Reservations;
import dev.kopek.simulator.WebhookSignature;
import dev.kopek.support.Api;
import dev.kopek.support.ConsoleBrowser;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.RawHttp;
import dev.kopek.support.TableCounts;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/** Each defect of issue 9 §3, one by one: a 400 with the field at fault, nothing stored, never a 500. */
class InputGuardsTest extends IntegrationTest {

    private static final String ARABIC_INDIC_32 = "\u0660".repeat(32);

    @Autowired
    Reservations reservations;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    private Map<String, Long> counts() {
        return TableCounts.of(jdbc);
    }

    private static String payment(String extra) {
        return "{\"reference\":\"" + newReference() + "\",\"amount\":100,\"currency\":\"EUR\","
                + "\"payment_method\":\"pm_ok\"" + extra + "}";
    }

    static Stream<Arguments> controlCharacters() {
        return Stream.of(
                Arguments.of(payment(",\"metadata\":{\"a\":\"\\u0000\"}"), "metadata.a"),
                Arguments.of(payment(",\"metadata\":{\"a\\u0000\":\"v\"}"), "metadata"),
                Arguments.of(payment(",\"description\":\"x\\u0007y\""), "description"),
                Arguments.of(payment(",\"metadata\":{\"a\":\"\\u009b\"}"), "metadata.a"),
                Arguments.of(payment(",\"metadata\":{\"a\":\"\\ud800\"}"), "metadata.a"),
                Arguments.of(
                        "{\"reference\":\"r\\u0000\",\"amount\":1,\"currency\":\"EUR\","
                                + "\"payment_method\":\"pm_ok\"}",
                        "reference"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("controlCharacters")
    void controlCharactersInAnyBodyFieldAreRefusedWithTheFieldName(String body, String field) {
        Api api = newMerchant();
        Map<String, Long> before = counts();

        Api.Response refused = api.pay(Api.newKey(), body);

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.text("code")).isEqualTo("invalid_characters");
        assertThat(refused.text("field")).isEqualTo(field);
        assertThat(counts()).isEqualTo(before);
    }

    @Test
    void overlongUtf8CannotSneakANulIn() {
        Api api = newMerchant();
        Map<String, Long> before = counts();
        byte[] body = payment(",\"metadata\":{\"a\":\"\u00c0\u0080\"}").getBytes(StandardCharsets.ISO_8859_1);

        Api.Response refused = api.send(api.request("/v1/payments")
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", Api.newKey())
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build());

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.text("code")).isEqualTo("invalid_encoding");
        assertThat(counts()).isEqualTo(before);
    }

    @Test
    void nulInAQueryParameterIsRefusedWithItsName() {
        Api.Response refused = newMerchant().get("/v1/payments?reference=%00");

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.text("code")).isEqualTo("invalid_characters");
        assertThat(refused.text("field")).isEqualTo("reference");
    }

    @ParameterizedTest
    @ValueSource(strings = {"%FF", "%C3%28", "%", "%G1", "%C0%80", "%ED%A0%80"})
    void invalidPercentEncodingOrUtf8InAQueryIsA400OnEveryRouteThatReadsOne(String value) {
        String merchant = merchants
                .issueKey(merchants.create("query " + UUID.randomUUID()).id())
                .secret();
        Map<String, String> paths = Map.of(
                "/v1/payments?reference=",
                merchant,
                "/v1/events?after=",
                merchant,
                "/v1/ledger/transactions?limit=",
                merchant,
                "/actuator/health?x=",
                merchant,
                "/v1/ops/manual-review?status=",
                ADMIN_TOKEN,
                "/v1/ops/recon-breaks?type=",
                ADMIN_TOKEN);
        paths.forEach((path, bearer) -> {
            RawHttp.Answer refused = RawHttp.send(
                    port,
                    "GET " + path + value + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            + "Connection: close\r\nAuthorization: Bearer " + bearer + "\r\n\r\n");
            assertThat(refused.status()).as(path).isEqualTo(400);
            assertThat(refused.code()).isEqualTo("invalid_encoding");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"a&&&=&=", "=x", "limit=5&=", "&=&"})
    void aQueryValueWithoutANameIsA400NotATomcatParseFailure(String query) {
        String merchant = merchants
                .issueKey(merchants.create("nameless " + UUID.randomUUID()).id())
                .secret();
        Map<String, String> paths = Map.of(
                "/v1/ledger/transactions?",
                merchant,
                "/v1/payments?",
                merchant,
                "/v1/ops/recon-breaks?",
                ADMIN_TOKEN,
                "/v1/ops/manual-review?",
                ADMIN_TOKEN);
        paths.forEach((path, bearer) -> {
            RawHttp.Answer refused = RawHttp.send(
                    port,
                    "GET " + path + query + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            + "Connection: close\r\nAuthorization: Bearer " + bearer + "\r\n\r\n");
            assertThat(refused.status()).as(path + query).isEqualTo(400);
            assertThat(refused.code()).isEqualTo("invalid_encoding");
        });
    }

    /**
     * Every route with a path variable, taken from the handler mappings, with ids in every prefix Kopek uses. The
     * console's pages answer a person, with its session: a 4xx HTML page without a stack trace, not problem+json.
     */
    @Test
    void nonAsciiDigitsInAnIdAreNotFoundOnEveryRouteThatTakesAnId() throws Exception {
        Api merchant = newMerchant();
        ConsoleBrowser console = ConsoleBrowser.loggedIn(baseUri(), ADMIN_TOKEN);
        List<String> checked = new ArrayList<>();
        for (Map.Entry<RequestMappingInfo, ?> entry :
                mappings.getHandlerMethods().entrySet()) {
            for (String pattern : entry.getKey().getPatternValues()) {
                if (!pattern.contains("{")) {
                    continue;
                }
                for (String prefix : List.of("pay", "re", "mer", "key", "mrv", "ltx", "we", "whd")) {
                    String path = pattern.replaceAll("\\{[^}]+}", prefix + "_" + ARABIC_INDIC_32)
                            .replace(prefix + "_" + ARABIC_INDIC_32 + "/webhooks", "simulator/webhooks");
                    for (var method : entry.getKey().getMethodsCondition().getMethods()) {
                        if (pattern.startsWith("/console/")) {
                            var page = console.send(method.name(), encode(path));
                            assertThat(page.statusCode())
                                    .as(method + " " + path)
                                    .isBetween(400, 499);
                            assertThat(page.headers().firstValue("Content-Type").orElseThrow())
                                    .startsWith("text/html");
                            assertThat(page.body()).doesNotContain("Exception", "\tat ");
                            continue;
                        }
                        for (Api api : List.of(merchant, admin())) {
                            Api.Response answer = api.send(api.request(encode(path))
                                    .header("Content-Type", "application/json")
                                    .header("Idempotency-Key", Api.newKey())
                                    .method(method.name(), HttpRequest.BodyPublishers.ofString("{}"))
                                    .build());
                            assertThat(answer.status()).as(method + " " + path).isBetween(400, 499);
                            assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
                        }
                    }
                }
                checked.add(pattern);
            }
        }
        assertThat(checked).hasSizeGreaterThanOrEqualTo(19);
    }

    private static String encode(String path) {
        StringBuilder out = new StringBuilder();
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            out.append(b >= 0 ? String.valueOf((char) b) : String.format("%%%02X", b & 0xFF));
        }
        return out.toString();
    }

    @Test
    void captureOfLongMaxAfterAPartialCaptureIsRefusedNotOverflowed() {
        Api api = newMerchant();
        Api.Response authorized = api.pay(
                Api.newKey(),
                "{\"reference\":\"" + newReference()
                        + "\",\"amount\":1000,\"currency\":\"EUR\",\"payment_method\":\"pm_ok\",\"capture_method\":\"manual\"}");
        String id = authorized.text("id");
        assertThat(api.post("/v1/payments/" + id + "/capture", Api.newKey(), "{\"amount\":100}")
                        .status())
                .isEqualTo(200);
        Map<String, Long> before = counts();

        Api.Response refused =
                api.post("/v1/payments/" + id + "/capture", Api.newKey(), "{\"amount\":" + Long.MAX_VALUE + "}");

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.text("code")).isEqualTo("amount_too_large");
        assertThat(counts()).isEqualTo(before);
        assertThat(api.get("/v1/payments/" + id).json().get("amount_captured").asLong())
                .isEqualTo(100);
    }

    @Test
    void refundOfLongMaxAfterAPartialRefundIsRefusedNotOverflowed() {
        Api api = newMerchant();
        String id = api.pay(Api.newKey(), Api.payment(newReference(), 1000, "EUR", "pm_ok"))
                .text("id");
        assertThat(api.post("/v1/payments/" + id + "/refunds", Api.newKey(), "{\"amount\":100}")
                        .status())
                .isEqualTo(202);
        Map<String, Long> before = counts();

        Api.Response refused =
                api.post("/v1/payments/" + id + "/refunds", Api.newKey(), "{\"amount\":" + Long.MAX_VALUE + "}");

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.text("code")).isEqualTo("amount_too_large");
        assertThat(counts()).isEqualTo(before);
    }

    /** Below the web edge too: the conditional UPDATEs compare with what is left and never form the sum. */
    @Test
    void reservationsOfLongMaxSimplyDoNotFitInSql() {
        var merchant = merchants.create("overflow " + UUID.randomUUID());
        Api api = new Api(baseUri(), merchants.issueKey(merchant.id()).secret());
        String manual = api.pay(
                        Api.newKey(),
                        "{\"reference\":\"" + newReference()
                                + "\",\"amount\":1000,\"currency\":\"EUR\",\"payment_method\":\"pm_ok\",\"capture_method\":\"manual\"}")
                .text("id");
        api.post("/v1/payments/" + manual + "/capture", Api.newKey(), "{\"amount\":100}");
        String paid = api.pay(Api.newKey(), Api.payment(newReference(), 1000, "EUR", "pm_ok"))
                .text("id");
        api.post("/v1/payments/" + paid + "/refunds", Api.newKey(), "{\"amount\":100}");
        MerchantId owner = merchant.id();

        assertThat(reservations.capture(owner, PaymentId.parse(manual).orElseThrow(), Long.MAX_VALUE, false))
                .isEmpty();
        assertThat(reservations.capture(owner, PaymentId.parse(manual).orElseThrow(), Long.MAX_VALUE, true))
                .isEmpty();
        assertThat(reservations.refund(owner, PaymentId.parse(paid).orElseThrow(), Long.MAX_VALUE))
                .isEmpty();
    }

    static Stream<Arguments> adminBodiesWithNul() {
        String ltx = "ltx_" + "0".repeat(32);
        String mrv = "mrv_" + "0".repeat(32);
        return Stream.of(
                Arguments.of("POST", "/v1/admin/merchants", "{\"name\":\"a\\u0000b\"}", "name"),
                Arguments.of(
                        "POST",
                        "/v1/admin/ledger/transactions/" + ltx + "/reversal",
                        "{\"reason\":\"oops\\u0000\"}",
                        "reason"),
                Arguments.of(
                        "POST",
                        "/v1/ops/manual-review/" + mrv + "/resolve",
                        "{\"decision\":\"failed\",\"resolved_by\":\"ann\\u0000\"}",
                        "resolved_by"),
                Arguments.of("POST", "/v1/ops/settlements/runs", "{\"date\":\"2026-01-01\\u0000\"}", "date"));
    }

    @ParameterizedTest(name = "{1} {3}")
    @MethodSource("adminBodiesWithNul")
    void nulInAdminBodiesIsRefusedWithTheFieldName(String method, String path, String body, String field) {
        Map<String, Long> before = counts();

        Api.Response refused = admin().send(admin().request(path)
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body))
                .build());

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.text("code")).isEqualTo("invalid_characters");
        assertThat(refused.text("field")).isEqualTo(field);
        assertThat(counts()).isEqualTo(before);
    }

    @Test
    void nulInARefundReasonIsRefused() {
        Api api = newMerchant();
        String id = api.pay(Api.newKey(), Api.payment(newReference(), 1000, "EUR", "pm_ok"))
                .text("id");
        Map<String, Long> before = counts();

        Api.Response refused =
                api.post("/v1/payments/" + id + "/refunds", Api.newKey(), "{\"amount\":10,\"reason\":\"\\u0000\"}");

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.text("field")).isEqualTo("reason");
        assertThat(counts()).isEqualTo(before);
    }

    static Stream<Arguments> unfitNotifications() {
        String ok = "\"data\":{\"id\":\"ch_1\",\"object\":\"charge\",\"status\":\"succeeded\",\"amount\":100,"
                + "\"currency\":\"EUR\",\"idempotency_key\":\"kpk_1\"}";
        return Stream.of(
                Arguments.of("{\"id\":\"evt\\u0000\",\"type\":\"charge.succeeded\"," + ok + "}", "id"),
                Arguments.of("{\"id\":\"evt_1\",\"type\":\"charge.succeeded\\u0000\"," + ok + "}", "type"),
                Arguments.of(
                        "{\"id\":\"evt_1\",\"type\":\"charge.succeeded\"," + ok.replace("ch_1", "ch\\u0000") + "}",
                        "data.id"),
                Arguments.of("{\"id\":\"" + "e".repeat(129) + "\",\"type\":\"charge.succeeded\"," + ok + "}", "id"),
                Arguments.of("{\"id\":\"evt_1\",\"type\":\"charge." + "s".repeat(64) + "\"," + ok + "}", "type"),
                Arguments.of(
                        "{\"id\":\"evt_1\",\"type\":\"charge.succeeded\"," + ok.replace("ch_1", "c".repeat(129)) + "}",
                        "data.id"),
                Arguments.of(
                        "{\"id\":\"evt_1\",\"type\":\"charge.succeeded\"," + ok.replace("kpk_1", "k".repeat(129)) + "}",
                        "data.idempotency_key"),
                Arguments.of(
                        "{\"id\":\"evt_1\",\"type\":\"charge.succeeded\",\"created\":" + Long.MAX_VALUE + "," + ok
                                + "}",
                        "created"),
                Arguments.of(
                        "{\"id\":\"evt_1\",\"type\":\"charge.succeeded\",\"created\":" + Long.MIN_VALUE + "," + ok
                                + "}",
                        "created"),
                Arguments.of(
                        "{\"id\":\"evt_1\",\"type\":\"dispute.opened\"," + ok.replace("100", "-5") + "}",
                        "data.amount"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("unfitNotifications")
    void correctlySignedNotificationWithAnUnfitFieldIsRefusedAndNotStored(String body, String field) {
        String unique = body.replace("evt_1", "evt_" + UUID.randomUUID());
        Map<String, Long> before = counts();
        Api anonymous = new Api(baseUri(), null);

        Api.Response refused = anonymous.send(anonymous
                .request("/v1/psp/simulator/webhooks")
                .header("Content-Type", "application/json")
                .header(
                        WebhookSignature.HEADER,
                        WebhookSignature.header(
                                "whsec_simulator", clock.instant().getEpochSecond(), unique))
                .POST(HttpRequest.BodyPublishers.ofString(unique))
                .build());

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(refused.text("code")).isEqualTo("invalid_notification");
        assertThat(refused.text("field")).isEqualTo(field);
        assertThat(counts()).isEqualTo(before);
    }
}
