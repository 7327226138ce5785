package dev.kopek.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * L12 and the house rule, checked on the real log output: the test JVM writes every line into one file
 * (logback-test.xml); this test drives the paths that handle secrets and card numbers, then reads the whole file
 * — its own lines and those of every test that ran before it in this JVM, which is all of them: it runs last
 * ({@code support/LogScanRunsLast}) — for anything that must never be there.
 */
class LogScanTest extends IntegrationTest {

    private static final Pattern API_KEY = Pattern.compile("sk_(test|live)_[A-Za-z0-9_-]{8,}");
    private static final Pattern SECRET = Pattern.compile("whsec_[A-Za-z0-9_-]{8,}");
    /** Digit runs (spaces or dashes allowed between groups) that could be a card number: checked with Luhn. */
    private static final Pattern GENERATED_HEX_ID =
            Pattern.compile("((?:spanId|span_id|span\\.id|key_hash|key#)\"?\\s*[=:]\\s*\"?)[0-9a-f]{16}(?![0-9a-f])");
    /** JUnit's @TempDir folders are named junit-{random long}: 19 digits, Luhn-valid one time in ten. */
    private static final Pattern TEMP_DIR = Pattern.compile("(/junit-?)[0-9]+(?![0-9A-Za-z])");

    private static final Pattern UUID_SHAPED =
            Pattern.compile("(?<![0-9a-f])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-f])");
    private static final Pattern CARD = Pattern.compile("(?<![0-9A-Za-z])[3-6](?:[ -]?[0-9]){12,18}(?![0-9A-Za-z])");

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
        assertThat(findings(logs, secrets)).isEmpty();
        assertThat(Api.issuedKeys())
                .as("the run's idempotency keys, this test's among them")
                .isNotEmpty();
        assertThat(clearKeys(logs, Api.issuedKeys()))
                .as("idempotency keys appear only as hashes (L12)")
                .isEmpty();
    }

    /**
     * The idempotency keys of the whole run (every {@code Api.newKey()}, tens of thousands) that appear in the log:
     * the log's key-shaped tokens are collected once and looked up, rather than searching the log for each key.
     */
    private static List<String> clearKeys(String logs, Set<String> keys) {
        Set<String> tokens = new HashSet<>();
        Matcher m = UUID_SHAPED.matcher(logs);
        while (m.find()) {
            tokens.add(m.group());
        }
        return keys.stream()
                .filter(tokens::contains)
                .map(k -> "an idempotency key in clear: " + k.substring(0, 8) + "…")
                .toList();
    }

    @Test
    void theScannerFindsWhatItLooksFor() {
        String planted = "x sk_test_abcdefgh12345678 y whsec_0123456789ab z 4111 1111 1111 1111 t-admin-token\n"
                + "ok: 2026-12-03T09:00:00.123Z took 1234567890123 ns pay_01a238f61f6677be91e459cc5f6b60c2";
        assertThat(findings(planted, List.of("t-admin-token"))).hasSize(4);
        assertThat(findings(planted.lines().toList().get(1), List.of())).isEmpty();
        assertThat(findings(
                        "[traceId=6b11b170f75c49b45939479494382485, spanId=5939479494382485] key#=5939479494382485"
                                + " {\"span.id\":\"5939479494382485\"}",
                        List.of()))
                .as("generated ids that look like digits")
                .isEmpty();
        assertThat(findings("spanId=x note 5939479494382485", List.of()))
                .as("the same digits as text")
                .hasSize(1);
        assertThat(findings("embedded PostgreSQL with data in /tmp/junit-3018853807207120572/postgres", List.of()))
                .as("a JUnit temporary folder")
                .isEmpty();
        assertThat(findings("note 3018853807207120572", List.of()))
                .as("the same digits as text")
                .hasSize(1);
        String key = Api.newKey();
        assertThat(clearKeys("claimed " + key + " for pay_x", Api.issuedKeys())).hasSize(1);
        assertThat(clearKeys("claimed key#=" + key.substring(0, 16) + " for pay_x", Api.issuedKeys()))
                .isEmpty();
    }

    private static List<String> findings(String text, List<String> secrets) {
        // Ids Kopek and its tracer generate as 16 hex digits (span ids, key hashes) are now and then all decimal
        // digits, and then one in ten passes Luhn; they are never card data, so their values are not scanned. Nor
        // are the numbers of JUnit's temporary folders (the embedded PostgreSQL's data folder is logged).
        String logs = TEMP_DIR.matcher(GENERATED_HEX_ID.matcher(text).replaceAll("$1<hex>"))
                .replaceAll("$1<n>");
        List<String> found = new ArrayList<>();
        for (String secret : secrets) {
            if (logs.contains(secret)) {
                found.add("a known secret beginning " + secret.substring(0, 4));
            }
        }
        for (Pattern pattern : List.of(API_KEY, SECRET)) {
            Matcher m = pattern.matcher(logs);
            while (m.find()) {
                found.add("looks like a secret: " + m.group().substring(0, 8) + "…");
            }
        }
        Matcher card = CARD.matcher(logs);
        while (card.find()) {
            String digits = card.group().replaceAll("[ -]", "");
            if (luhn(digits)) {
                found.add("a Luhn-valid card-like number ending " + digits.substring(digits.length() - 4));
            }
        }
        return found;
    }

    private static boolean luhn(String digits) {
        int sum = 0;
        for (int i = 0; i < digits.length(); i++) {
            int d = digits.charAt(digits.length() - 1 - i) - '0';
            sum += i % 2 == 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d;
        }
        return sum % 10 == 0;
    }

    private static Path logFile() {
        return Path.of(
                "target", "test-logs", "kopek-tests-" + ProcessHandle.current().pid() + ".log");
    }
}
