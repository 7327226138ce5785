package dev.kopek.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * L12 and the house rule, checked on the real log output: the test JVM writes every line into one file
 * (logback-test.xml); this test drives the paths that handle secrets and card numbers, then reads the whole file
 * — its own lines and those of every test that ran before it in this JVM, which is all of them: it runs last
 * ({@code support/LogScanRunsLast}) — for anything that must never be there ({@link LogScanner} says what).
 */
class LogScanTest extends IntegrationTest {

    @Test
    void logsHoldNoKeyTokenSecretOrCardNumber() throws IOException {
        List<String> secrets = new ArrayList<>(List.of(ADMIN_TOKEN, "whsec_simulator"));
        Api.Response merchant = admin().post("/v1/admin/merchants", Api.newKey(), "{\"name\":\"Log scan\"}");
        Api.Response key = admin().post("/v1/admin/merchants/" + merchant.text("id") + "/keys", Api.newKey(), "{}");
        secrets.add(key.text("secret"));
        Api api = new Api(baseUri(), key.text("secret"));
        assertThat(api.pay(Api.newKey(), Api.payment(newReference(), 1000, "EUR", "pm_ok"))
                        .status())
                .isEqualTo(201);
        assertThat(api.pay(Api.newKey(), Api.payment(newReference(), 1000, "EUR", "4242 4242 4242 4242"))
                        .status())
                .isEqualTo(400);
        assertThat(api.pay(
                                Api.newKey(),
                                "{\"reference\":\"" + newReference() + "\",\"amount\":1000,\"currency\":"
                                        + "\"EUR\",\"payment_method\":\"pm_ok\",\"description\":\"card 5555555555554444\"}")
                        .status())
                .isEqualTo(400);
        Api.Response endpoint = api.post(
                "/v1/webhook-endpoints", Api.newKey(), "{\"url\":\"http://127.0.0.1:9/hook\",\"event_types\":[\"*\"]}");
        if (endpoint.status() == 201 && endpoint.json().has("secret")) {
            secrets.add(endpoint.text("secret"));
        }
        new Api(baseUri(), "sk_test_guessed_0123456789abcdef").get("/v1/payments/pay_x");
        new Api(baseUri(), "wrong-admin-token-0123456789").get("/v1/ops/manual-review");

        String logs = Files.readString(logFile(), StandardCharsets.UTF_8);

        assertThat(logs).as("the scanned log is the test run's").contains("payment settled");
        assertThat(LogScanner.findings(logs, secrets)).isEmpty();
        assertThat(Api.issuedKeys())
                .as("the run's idempotency keys, this test's among them")
                .isNotEmpty();
        assertThat(LogScanner.clearKeys(logs, Api.issuedKeys()))
                .as("idempotency keys appear only as hashes (L12)")
                .isEmpty();
    }

    private static Path logFile() {
        return Path.of(
                "target", "test-logs", "kopek-tests-" + ProcessHandle.current().pid() + ".log");
    }
}
