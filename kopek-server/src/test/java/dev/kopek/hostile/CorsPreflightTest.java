package dev.kopek.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.IntegrationTest;
import dev.kopek.support.RawHttp;
import dev.kopek.support.TableCounts;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * No origin may call Kopek from a browser: every CORS preflight, on any path, with or without credentials, with any
 * requested method or headers, is the same quiet 403 problem — never a 200 that lists methods, never a 5xx, and
 * never a log line (a stranger can send them by the thousand).
 */
@ExtendWith(OutputCaptureExtension.class)
class CorsPreflightTest extends IntegrationTest {

    private static final String[] PATHS = {
        "/v1/payments",
        "/v1/payments/pay_x/capture",
        "/v1/admin/merchants",
        "/v1/ops/manual-review",
        "/v1/ops/audit",
        "/v1/psp/simulator/webhooks",
        "/v1/webhook-endpoints",
        "/v1/balance",
        "/actuator/health",
        "/actuator/health/readiness",
        "/actuator/prometheus",
        "/openapi.yaml",
        "/console",
        "/no/such/path",
        "/error",
        "/"
    };
    private static final String[] CREDENTIALS = {
        "", "Authorization: Bearer " + ADMIN_TOKEN + "\r\n", "Authorization: Bearer sk_test_not_a_key_000000\r\n"
    };
    private static final String[] REQUESTED = {
        "Access-Control-Request-Method: POST\r\n",
        "Access-Control-Request-Method: DELETE\r\nAccess-Control-Request-Headers: authorization, idempotency-key\r\n",
        "Access-Control-Request-Method: BREW\r\n",
        "Access-Control-Request-Method: \r\n"
    };

    @Test
    void everyPreflightIsAQuietForbiddenProblem(CapturedOutput output) {
        String key = merchants
                .issueKey(merchants.create("cors " + UUID.randomUUID()).id())
                .secret();
        Map<String, Long> before = TableCounts.of(jdbc);
        int sent = 0;
        for (String path : PATHS) {
            for (String credentials : concat(CREDENTIALS, "Authorization: Bearer " + key + "\r\n")) {
                for (String requested : REQUESTED) {
                    RawHttp.Answer answer = RawHttp.send(
                            port,
                            "OPTIONS " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                    + "Connection: close\r\nOrigin: https://shop.example\r\n" + credentials + requested
                                    + "\r\n");
                    String what = "OPTIONS " + path + " " + requested.strip();
                    assertThat(answer.status()).as(what).isEqualTo(403);
                    assertThat(answer.isProblem()).as(what).isTrue();
                    assertThat(answer.code()).as(what).isEqualTo("cors_not_allowed");
                    assertThat(answer.headers())
                            .as(what)
                            .doesNotContainKeys("allow", "access-control-allow-origin", "access-control-allow-methods");
                    sent++;
                }
            }
        }
        assertThat(sent).isEqualTo(PATHS.length * (CREDENTIALS.length + 1) * REQUESTED.length);
        assertThat(TableCounts.of(jdbc)).isEqualTo(before);
        assertThat(output.getAll())
                .doesNotContain("Servlet.service()")
                .doesNotContain("cors_not_allowed")
                .doesNotContain("ApiProblem");
    }

    @Test
    void anOptionsWithoutPreflightHeadersIsNotRefusedAsOne() {
        RawHttp.Answer answer = RawHttp.send(
                port, "OPTIONS /actuator/health HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "Connection: close\r\n\r\n");

        assertThat(answer.code()).isNotEqualTo("cors_not_allowed");
        assertThat(answer.status()).isLessThan(500);
    }

    private static String[] concat(String[] values, String more) {
        String[] all = java.util.Arrays.copyOf(values, values.length + 1);
        all[values.length] = more;
        return all;
    }
}
