package dev.kopek.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.simulator.WebhookSignature;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.RawHttp;
import java.net.http.HttpRequest;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Refusals made outside the controllers — by Tomcat before Spring runs, by the error dispatch, by content
 * negotiation — are problem+json with a stable code, never a 500, and never come after a write.
 */
class ServerRefusalsTest extends IntegrationTest {

    private static final String CLOSE = "Host: 127.0.0.1\r\nConnection: close\r\n";

    static Stream<Arguments> refusedByTomcat() {
        return Stream.of(
                Arguments.of("bad header byte", "GET /v1/payments HTTP/1.1\r\n" + CLOSE + "X-A: a\u0001b\r\n\r\n", 400),
                Arguments.of(
                        "oversized header",
                        "GET /v1/payments HTTP/1.1\r\n" + CLOSE + "X-Big: " + "a".repeat(20_000) + "\r\n\r\n",
                        400),
                Arguments.of("NUL in the path", "GET /v1/payments/%00 HTTP/1.1\r\n" + CLOSE + "\r\n", 400),
                Arguments.of("encoded slash", "GET /v1/payments/a%2Fb HTTP/1.1\r\n" + CLOSE + "\r\n", 400),
                Arguments.of(
                        "raw non-ASCII path", "GET /v1/payments/pay_\u00d9\u00a0 HTTP/1.1\r\n" + CLOSE + "\r\n", 400),
                Arguments.of("space in the path", "GET /v1/pay ments HTTP/1.1\r\n" + CLOSE + "\r\n", 400),
                Arguments.of(
                        "unknown Expect",
                        "POST /v1/payments HTTP/1.1\r\n" + CLOSE
                                + "Expect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
                        417),
                Arguments.of("no Host", "GET /v1/payments HTTP/1.1\r\n\r\n", 400),
                Arguments.of("two Hosts", "GET /v1/payments HTTP/1.1\r\n" + CLOSE + "Host: other\r\n\r\n", 400),
                Arguments.of(
                        "negative Content-Length",
                        "POST /v1/payments HTTP/1.1\r\n" + CLOSE + "Content-Length: -1\r\n\r\n",
                        400),
                Arguments.of(
                        "TLS hello on plain HTTP",
                        "\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\r\n\r\n",
                        400),
                Arguments.of("unknown HTTP version", "GET /v1/payments HTTP/9.9\r\n" + CLOSE + "\r\n", 400),
                Arguments.of(
                        "unknown transfer coding",
                        "POST /v1/payments HTTP/1.1\r\n" + CLOSE + "Transfer-Encoding: gzip\r\n\r\n",
                        501));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedByTomcat")
    void refusalsTomcatMakesBeforeSpringAreProblemJsonWithACode(String name, String request, int status) {
        RawHttp.Answer answer = RawHttp.send(port, request);

        assertThat(answer.status()).isEqualTo(status);
        assertThat(answer.contentType()).startsWith("application/problem+json");
        assertThat(answer.code()).isNotBlank();
        assertThat(answer.body()).doesNotContain("<html");
        // Spring's request id filter never ran; the answer still names the request, in the header and the body.
        assertThat(answer.headers().get("x-request-id")).matches("req_[0-9a-f]{24}");
        assertThat(Api.JSON.readTree(answer.body()).get("request_id").asString())
                .isEqualTo(answer.headers().get("x-request-id"));
    }

    /**
     * A caller's well-formed request id survives a refusal Tomcat makes before Spring runs; a malformed one is
     * replaced there as everywhere else.
     */
    @Test
    void tomcatsRefusalsKeepAWellFormedRequestIdAndReplaceAMalformedOne() {
        RawHttp.Answer kept = RawHttp.send(
                port, "GET /console/payments/%00 HTTP/1.1\r\n" + CLOSE + "X-Request-Id: probe-42.a\r\n\r\n");
        assertThat(kept.status()).isEqualTo(400);
        assertThat(kept.headers().get("x-request-id")).isEqualTo("probe-42.a");
        assertThat(Api.JSON.readTree(kept.body()).get("request_id").asString()).isEqualTo("probe-42.a");

        RawHttp.Answer replaced =
                RawHttp.send(port, "GET /v1/payments/%00 HTTP/1.1\r\n" + CLOSE + "X-Request-Id: two words\r\n\r\n");
        assertThat(replaced.status()).isEqualTo(400);
        assertThat(replaced.headers().get("x-request-id")).matches("req_[0-9a-f]{24}");
        assertThat(Api.JSON.readTree(replaced.body()).get("request_id").asString())
                .isEqualTo(replaced.headers().get("x-request-id"));
    }

    /**
     * TRACE reaches Spring Security's firewall (Tomcat's allowTrace is on for that), which refuses every method
     * outside the usual seven alike: 400 request_rejected, so no admin route answers anything but 400/401/403/404
     * to any method (issue 9 section 1), and TRACE never echoes a request's headers.
     */
    @Test
    void traceIsRefusedAsAProblemWithACode() {
        RawHttp.Answer answer = RawHttp.send(port, "TRACE /v1/payments HTTP/1.1\r\n" + CLOSE + "\r\n");

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.isProblem()).isTrue();
        assertThat(answer.code()).isEqualTo("request_rejected");
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "POST", "PUT", "DELETE", "PATCH"})
    void errorPathCalledDirectlyIsNotFoundNeverA500(String method) {
        RawHttp.Answer answer =
                RawHttp.send(port, method + " /error HTTP/1.1\r\n" + CLOSE + "Content-Length: 0\r\n\r\n");

        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.isProblem()).isTrue();
        assertThat(answer.code()).isEqualTo("not_found");
        assertThat(answer.body()).contains("\"status\":404").doesNotContain("\"status\":999");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/v1/payments",
                "/v1/payments/x/capture",
                "/v1/admin/merchants",
                "/v1/ops/manual-review",
                "/v1/psp/simulator/webhooks",
                "/v1/webhook-endpoints",
                "/actuator/health"
            })
    void corsPreflightIsNeverA500(String path) {
        for (String auth : new String[] {
            "", "Authorization: Bearer " + ADMIN_TOKEN + "\r\n", "Authorization: Bearer sk_test_not_a_key_000000\r\n"
        }) {
            RawHttp.Answer answer = RawHttp.send(
                    port,
                    "OPTIONS " + path + " HTTP/1.1\r\n" + CLOSE + auth
                            + "Origin: https://evil.example\r\nAccess-Control-Request-Method: POST\r\n\r\n");

            assertThat(answer.status()).isBetween(200, 499);
            if (answer.status() >= 400) {
                assertThat(answer.isProblem()).as(answer.body()).isTrue();
                assertThat(answer.code()).isNotBlank();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"/actuator/nothing", "/actuator/metrics/no.such.metric", "/actuator/health/nothing"})
    void actuatorNotFoundIsAProblem(String path) {
        RawHttp.Answer answer = RawHttp.send(
                port, "GET " + path + " HTTP/1.1\r\n" + CLOSE + "Authorization: Bearer " + ADMIN_TOKEN + "\r\n\r\n");

        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.isProblem()).as(answer.body()).isTrue();
        assertThat(answer.code()).isEqualTo("not_found");
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/xml", "text/html", "image/png", "application/json;q=0, */*;q=0"})
    void adminActionAnswersJsonWhateverAcceptSays(String accept) {
        long merchantsBefore = rows("merchants");
        Api.Response created = admin().send(admin().request("/v1/admin/merchants")
                .header("Accept", accept)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"accept test\"}"))
                .build());

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.header("Content-Type")).startsWith("application/json");
        assertThat(created.text("object")).isEqualTo("merchant");
        assertThat(rows("merchants")).isEqualTo(merchantsBefore + 1);

        Api.Response fee = admin().send(admin().request("/v1/admin/merchants/" + created.text("id") + "/fees")
                .header("Accept", accept)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"bps\":10,\"fixed_minor\":0,\"currency\":\"EUR\"}"))
                .build());
        assertThat(fee.status()).isEqualTo(200);
        assertThat(fee.header("Content-Type")).startsWith("application/json");
    }

    @Test
    void paymentsAndRefusalsIgnoreAcceptToo() {
        Api api = newMerchant();
        Api.Response paid = api.send(api.request("/v1/payments")
                .header("Accept", "application/xml")
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", Api.newKey())
                .POST(HttpRequest.BodyPublishers.ofString(Api.payment(newReference(), 100, "EUR", "pm_ok")))
                .build());
        assertThat(paid.status()).isEqualTo(201);
        assertThat(paid.header("Content-Type")).startsWith("application/json");

        Api.Response refused = api.send(api.request("/v1/payments")
                .header("Accept", "text/html")
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", Api.newKey())
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build());
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
    }

    @Test
    void pspNotificationIsStoredOnlyWithAnAnswerThatSaysSo() {
        long before = rows("psp_notifications");
        String body = "{\"id\":\"evt_" + UUID.randomUUID() + "\",\"type\":\"charge.succeeded\",\"created\":"
                + clock.instant().getEpochSecond() + ",\"data\":{\"id\":\"ch_accept\",\"object\":\"charge\","
                + "\"status\":\"succeeded\",\"amount\":100,\"currency\":\"EUR\",\"idempotency_key\":\"kpk_accept\"}}";
        Api anonymous = new Api(baseUri(), null);
        Api.Response answer = anonymous.send(anonymous
                .request("/v1/psp/simulator/webhooks")
                .header("Accept", "application/xml")
                .header("Content-Type", "application/json")
                .header(
                        WebhookSignature.HEADER,
                        WebhookSignature.header(
                                "whsec_simulator", clock.instant().getEpochSecond(), body))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.header("Content-Type")).startsWith("application/json");
        assertThat(rows("psp_notifications")).isEqualTo(before + 1);
    }
}
