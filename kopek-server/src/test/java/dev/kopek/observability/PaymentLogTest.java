package dev.kopek.observability;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.kopek.money.PrefixedId;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.logging.logback.StructuredLogEncoder;
import org.springframework.core.env.AbstractEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;
import tools.jackson.databind.JsonNode;

/** What a payment leaves in the log: one INFO line, and every line of it names the payment's context. */
class PaymentLogTest extends IntegrationTest {

    @Test
    void aSuccessfulPaymentLeavesOneInfoLineWithItsWholeContext() {
        Api api = newMerchant();
        String key = Api.newKey();
        // Not made from the key: the request id is logged on every line, and a key must never be (L12).
        String requestId = Api.unique("log-test");
        List<ILoggingEvent> lines;
        Api.Response created;
        try (CapturedLogs logs = CapturedLogs.open()) {
            created = pay(api, key, requestId);
            lines = logs.withRequestId(requestId);
        }

        assertThat(created.status()).isEqualTo(201);
        List<ILoggingEvent> info = lines.stream()
                .filter(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
                .toList();
        assertThat(info).hasSize(1);
        Map<String, String> context = info.getFirst().getMDCPropertyMap();
        assertThat(context)
                .containsEntry("payment_id", created.text("id"))
                .containsEntry("attempt", "1")
                .containsEntry("psp_reference", created.text("psp_reference"))
                .containsKeys("merchant_id", "key_hash", "traceId");
        assertThat(context.get("key_hash")).hasSize(16).doesNotContain(key);
        assertThat(info.getFirst().getFormattedMessage())
                .contains("payment settled")
                .doesNotContain(key);
    }

    /**
     * Not only the settled line: a payment whose PSP connection reset after the charge (retried once with the same
     * key), one whose outcome stays unknown (a 5xx after the charge) and a decline each log only lines that name
     * the merchant, the key's hash, the attempt and the payment; the PSP reference wherever the payment has one.
     */
    @ParameterizedTest
    @ValueSource(strings = {"pm_reset_after_charge", "pm_5xx_after_charge", "pm_declined"})
    void everyLineOnThePaymentPathNamesItsContext(String method) {
        Api api = newMerchant();
        String key = Api.newKey();
        String requestId = Api.unique("log-path");
        List<ILoggingEvent> lines;
        Api.Response answer;
        try (CapturedLogs logs = CapturedLogs.open()) {
            answer = api.send(api.request("/v1/payments")
                    .header("Content-Type", "application/json")
                    .header("Idempotency-Key", key)
                    .header("X-Request-Id", requestId)
                    .POST(HttpRequest.BodyPublishers.ofString(Api.payment(newReference(), 1500, "EUR", method)))
                    .build());
            lines = logs.withRequestId(requestId).stream()
                    .filter(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
                    .toList();
        }

        assertThat(answer.status()).as(answer.body()).isLessThan(500);
        assertThat(lines).as(method).isNotEmpty().allSatisfy(line -> {
            assertThat(line.getMDCPropertyMap())
                    .as(line.getFormattedMessage())
                    .containsEntry("payment_id", answer.text("id"))
                    .containsEntry("attempt", "1")
                    .containsKeys("merchant_id", "key_hash", "traceId");
            assertThat(line.getFormattedMessage()).doesNotContain(key);
        });
        if (answer.text("psp_reference") != null) {
            assertThat(lines.getLast().getMDCPropertyMap())
                    .as(method)
                    .containsEntry("psp_reference", answer.text("psp_reference"));
        }
    }

    /**
     * KOPEK_LOG_FORMAT=ecs, the one setting, turns on Spring Boot's ECS encoder for the console; that encoder, given
     * the payment's line as the application logged it, writes one JSON object carrying the whole context as fields.
     * (The test context itself logs plain text: switching the JVM's logging would change every other test's.)
     */
    @Test
    void withTheStructuredFormatThePaymentLineIsJsonWithItsContext() throws IOException {
        String format = configuredConsoleFormat(Map.of("KOPEK_LOG_FORMAT", "ecs"));
        assertThat(format).isEqualTo("ecs");
        assertThat(configuredConsoleFormat(Map.of()))
                .as("plain text for the demo")
                .isEmpty();
        StructuredLogEncoder encoder = new StructuredLogEncoder();
        encoder.setContext((LoggerContext) LoggerFactory.getILoggerFactory());
        encoder.setFormat(format);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        var merchant = merchants.create(Api.unique("Structured log"));
        Api api = new Api(baseUri(), merchants.issueKey(merchant.id()).secret());
        String key = Api.newKey();
        String requestId = Api.unique("log-test");
        ILoggingEvent settled;
        Api.Response created;
        try (CapturedLogs logs = CapturedLogs.open()) {
            created = pay(api, key, requestId);
            settled = logs.withRequestId(requestId).stream()
                    .filter(e -> e.getFormattedMessage().startsWith("payment settled"))
                    .findFirst()
                    .orElseThrow();
        }

        String line = new String(encoder.encode(settled), StandardCharsets.UTF_8);
        encoder.stop();

        assertThat(line).endsWith("\n").doesNotContain(key);
        assertThat(line.strip().lines()).as("one line").hasSize(1);
        JsonNode json = Api.JSON.readTree(line);
        assertThat(json.get("message").asString()).startsWith("payment settled");
        assertThat(json.get("log").get("level").asString()).isEqualTo("INFO");
        assertThat(json.get("request_id").asString()).isEqualTo(requestId);
        assertThat(json.get("merchant_id").asString())
                .isEqualTo(PrefixedId.format("mer", merchant.id().value()));
        assertThat(json.get("payment_id").asString()).isEqualTo(created.text("id"));
        assertThat(json.get("psp_reference").asString()).isEqualTo(created.text("psp_reference"));
        assertThat(json.get("attempt").asString()).isEqualTo("1");
        assertThat(json.get("key_hash").asString()).matches("[0-9a-f]{16}");
    }

    /** logging.structured.format.console as application.yml resolves it with these environment variables. */
    private static String configuredConsoleFormat(Map<String, Object> variables) throws IOException {
        // No system environment: only the variables given, as if Kopek were started with exactly these.
        AbstractEnvironment environment = new AbstractEnvironment() {};
        environment.getPropertySources().addFirst(new MapPropertySource("variables", variables));
        for (PropertySource<?> source :
                new YamlPropertySourceLoader().load("application.yml", new ClassPathResource("application.yml"))) {
            environment.getPropertySources().addLast(source);
        }
        return environment.getProperty("logging.structured.format.console");
    }

    private static Api.Response pay(Api api, String key, String requestId) {
        return api.send(api.request("/v1/payments")
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", key)
                .header("X-Request-Id", requestId)
                .POST(HttpRequest.BodyPublishers.ofString(Api.payment(newReference(), 499_000, "RUB", "pm_ok")))
                .build());
    }
}
