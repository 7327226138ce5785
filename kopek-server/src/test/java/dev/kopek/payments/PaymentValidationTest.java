package dev.kopek.payments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.net.http.HttpRequest;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad input is a 400 problem with a stable code and the field at fault, and writes nothing at all. */
class PaymentValidationTest extends IntegrationTest {

    private static final String OK = "\"reference\":\"r-1\",\"currency\":\"EUR\",\"payment_method\":\"pm_ok\"";

    static Stream<Arguments> badBodies() {
        return Stream.of(
                Arguments.of("{" + OK + ",\"amount\":10.5}", "invalid_amount", "amount"),
                Arguments.of("{" + OK + ",\"amount\":100.0}", "invalid_amount", "amount"),
                Arguments.of("{" + OK + ",\"amount\":1e3}", "invalid_amount", "amount"),
                Arguments.of("{" + OK + ",\"amount\":\"100\"}", "invalid_amount", "amount"),
                Arguments.of("{" + OK + ",\"amount\":0}", "invalid_amount", "amount"),
                Arguments.of("{" + OK + ",\"amount\":-5}", "invalid_amount", "amount"),
                Arguments.of("{" + OK + ",\"amount\":99999999999999999999999}", "amount_too_large", "amount"),
                Arguments.of("{" + OK + ",\"amount\":100000000001}", "amount_too_large", "amount"),
                Arguments.of("{" + OK + "}", "missing_field", "amount"),
                Arguments.of(
                        "{\"reference\":\"r\",\"amount\":1,\"currency\":\"XYZ\",\"payment_method\":\"pm_ok\"}",
                        "invalid_currency",
                        "currency"),
                Arguments.of(
                        "{\"reference\":\"r\",\"amount\":1,\"currency\":\"eur\",\"payment_method\":\"pm_ok\"}",
                        "invalid_currency",
                        "currency"),
                Arguments.of(
                        "{\"reference\":\"r\",\"amount\":1,\"currency\":\"XXX\",\"payment_method\":\"pm_ok\"}",
                        "invalid_currency",
                        "currency"),
                Arguments.of(
                        "{\"reference\":\"\",\"amount\":1,\"currency\":\"EUR\",\"payment_method\":\"pm_ok\"}",
                        "invalid_reference",
                        "reference"),
                Arguments.of(
                        "{\"reference\":\"" + "r".repeat(65)
                                + "\",\"amount\":1,\"currency\":\"EUR\",\"payment_method\":\"pm_ok\"}",
                        "invalid_reference",
                        "reference"),
                Arguments.of(
                        "{\"amount\":1,\"currency\":\"EUR\",\"payment_method\":\"pm_ok\"}",
                        "missing_field",
                        "reference"),
                Arguments.of(
                        "{\"reference\":\"r\",\"amount\":1,\"currency\":\"EUR\","
                                + "\"payment_method\":\"4242424242424242\"}",
                        "card_data_not_accepted",
                        "payment_method"),
                Arguments.of(
                        "{\"reference\":\"r\",\"amount\":1,\"currency\":\"EUR\","
                                + "\"payment_method\":\"4111 1111 1111 1111\"}",
                        "card_data_not_accepted",
                        "payment_method"),
                Arguments.of(
                        "{\"reference\":\"r\",\"amount\":1,\"currency\":\"EUR\",\"payment_method\":\"pm_ok\","
                                + "\"description\":\"card 5555 5555 5555 4444\"}",
                        "card_data_not_accepted",
                        "description"),
                Arguments.of(
                        "{\"reference\":\"r\",\"amount\":1,\"currency\":\"EUR\",\"payment_method\":\"pm ok!\"}",
                        "invalid_payment_method",
                        "payment_method"),
                Arguments.of(
                        "{" + OK + ",\"amount\":1,\"metadata\":" + manyKeys(21) + "}", "invalid_metadata", "metadata"),
                Arguments.of(
                        "{" + OK + ",\"amount\":1,\"metadata\":{\"k\":\"" + "v".repeat(501) + "\"}}",
                        "invalid_metadata",
                        "metadata.k"),
                Arguments.of("{" + OK + ",\"amount\":1,\"metadata\":{\"k\":5}}", "invalid_metadata", "metadata.k"),
                Arguments.of("{" + OK + ",\"amount\":1,\"customer_id\":\"c\"}", "unknown_field", "customer_id"),
                Arguments.of(
                        "{" + OK + ",\"amount\":1,\"capture_method\":\"later\"}",
                        "invalid_capture_method",
                        "capture_method"),
                Arguments.of("{" + OK + ",\"amount\":1,\"amount\":2}", "invalid_json", null),
                Arguments.of("{" + OK + ",\"amount\":1", "invalid_json", null),
                Arguments.of("[1,2]", "invalid_json", null),
                Arguments.of(
                        "{" + OK + ",\"amount\":1,\"description\":\"" + "d".repeat(17_000) + "\"}",
                        "body_too_large",
                        null));
    }

    private static String manyKeys(int n) {
        StringBuilder json = new StringBuilder("{");
        for (int i = 0; i < n; i++) {
            json.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"v\"");
        }
        return json.append('}').toString();
    }

    @ParameterizedTest(name = "{1} on {2}")
    @MethodSource("badBodies")
    void badBodyIsRefusedAndNothingIsStored(String body, String code, String field) {
        Api api = newMerchant();
        long payments = rows("payments");
        long keys = rows("idempotency_keys");

        Api.Response refused = api.pay(Api.newKey(), body);

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(refused.text("code")).isEqualTo(code);
        assertThat(refused.text("field")).isEqualTo(field);
        assertThat(rows("payments")).isEqualTo(payments);
        assertThat(rows("idempotency_keys")).isEqualTo(keys);
    }

    static Stream<Arguments> badKeys() {
        return Stream.of(
                Arguments.of(null, "missing_idempotency_key"),
                Arguments.of("k".repeat(256), "invalid_idempotency_key"),
                Arguments.of("   ", "invalid_idempotency_key"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badKeys")
    void badIdempotencyKeyIsRefusedAndNothingIsStored(String key, String code) {
        Api api = newMerchant();
        long keys = rows("idempotency_keys");
        HttpRequest.Builder request = api.request("/v1/payments")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Api.payment("r", 1, "EUR", "pm_ok")));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        Api.Response refused = api.send(request.build());

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.text("code")).isEqualTo(code);
        assertThat(rows("idempotency_keys")).isEqualTo(keys);
    }

    @org.junit.jupiter.api.Test
    void nonAsciiIdempotencyKeyIsRefused() throws Exception {
        Api api = newMerchant();
        String body = Api.payment("r", 1, "EUR", "pm_ok");
        String bearer =
                api.request("/").build().headers().firstValue("Authorization").orElseThrow();
        byte[] head = ("POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + bearer
                        + "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " + body.length()
                        + "\r\nIdempotency-Key: ")
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] key = "ключ".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (var socket = new java.net.Socket("127.0.0.1", port)) {
            var out = socket.getOutputStream();
            out.write(head);
            out.write(key);
            out.write(("\r\n\r\n" + body).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.flush();
            String response =
                    new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(response).startsWith("HTTP/1.1 400").contains("invalid_idempotency_key");
        }
    }

    @org.junit.jupiter.api.Test
    void wrongMediaTypeAndUnknownRoutesAreProblemsToo() {
        Api api = newMerchant();
        Api.Response xml = api.send(api.request("/v1/payments")
                .header("Content-Type", "text/xml")
                .header("Idempotency-Key", Api.newKey())
                .POST(HttpRequest.BodyPublishers.ofString("<a/>"))
                .build());
        assertThat(xml.status()).isEqualTo(415);
        assertThat(xml.text("code")).isEqualTo("unsupported_media_type");
        assertThat(xml.text("title")).isEqualTo("unsupported media type");

        Api.Response missing = api.get("/v1/nothing-here");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.header("Content-Type")).startsWith("application/problem+json");

        Api.Response method = api.delete("/v1/payments");
        assertThat(method.status()).isEqualTo(405);
        assertThat(method.text("code")).isEqualTo("method_not_allowed");
        // Every problem's title is its code in words, Spring's own refusals' too (not "Method Not Allowed").
        assertThat(method.text("title")).isEqualTo("method not allowed");
        assertThat(missing.text("title")).isEqualTo("not found");
        assertThat(api.get("/v1/payments/pay_nothing/refunds/x").text("title")).isEqualTo("not found");
        assertThat(new Api(baseUri(), null).get("/docs/").text("title")).isEqualTo("not found");
    }
}
