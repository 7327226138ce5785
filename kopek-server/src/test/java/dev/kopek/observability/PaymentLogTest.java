package dev.kopek.observability;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a payment leaves in the log: one INFO line, and every line of it names the payment's context. */
class PaymentLogTest extends IntegrationTest {

    @Test
    void aSuccessfulPaymentLeavesOneInfoLineWithItsWholeContext() {
        Api api = newMerchant();
        String key = Api.newKey();
        List<ILoggingEvent> lines;
        Api.Response created;
        try (CapturedLogs logs = CapturedLogs.open()) {
            created = api.send(api.request("/v1/payments").header("Content-Type", "application/json")
                    .header("Idempotency-Key", key).header("X-Request-Id", "log-test-" + key)
                    .POST(HttpRequest.BodyPublishers.ofString(Api.payment(newReference(), 499_000, "RUB", "pm_ok")))
                    .build());
            lines = logs.withRequestId("log-test-" + key);
        }

        assertThat(created.status()).isEqualTo(201);
        List<ILoggingEvent> info = lines.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.INFO)).toList();
        assertThat(info).hasSize(1);
        Map<String, String> context = info.getFirst().getMDCPropertyMap();
        assertThat(context).containsEntry("payment_id", created.text("id"))
                .containsEntry("attempt", "1")
                .containsEntry("psp_reference", created.text("psp_reference"))
                .containsKeys("merchant_id", "key_hash", "traceId");
        assertThat(context.get("key_hash")).hasSize(16).doesNotContain(key);
        assertThat(info.getFirst().getFormattedMessage()).contains("payment settled").doesNotContain(key);
    }
}
