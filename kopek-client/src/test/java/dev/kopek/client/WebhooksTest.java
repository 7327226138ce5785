package dev.kopek.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class WebhooksTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final String EVENT = """
            {"id":"evt_1","object":"event","type":"payment.captured","created_at":"2026-03-01T12:00:00Z",
             "merchant":"mer_1","resource":{"type":"payment","id":"pay_1","sequence":3},
             "data":{"id":"pay_1","status":"captured","amount":1000,"currency":"EUR","metadata":{}}}""";

    @Test
    void aSignedEventIsReadWithAnyOfTheRotatingSecrets() {
        byte[] body = EVENT.getBytes(StandardCharsets.UTF_8);
        String header = WebhookSignature.header("whsec_new", NOW.getEpochSecond(), body);

        Event event = Webhooks.receive(List.of("whsec_old", "whsec_new"), header, body, NOW);

        assertThat(event.type()).isEqualTo("payment.captured");
        assertThat(event.resource().sequence()).isEqualTo(3);
        assertThat(KopekClient.convert(event.data(), Payment.class).amount()).isEqualTo(1000);
    }

    @Test
    void aTamperedOrStaleBodyIsRefusedBeforeParsing() {
        byte[] body = EVENT.getBytes(StandardCharsets.UTF_8);
        String header = WebhookSignature.header("whsec_new", NOW.getEpochSecond(), body);
        byte[] tampered = EVENT.replace("1000", "9000").getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> Webhooks.receive(List.of("whsec_new"), header, tampered, NOW))
                .isInstanceOfSatisfying(
                        Webhooks.VerificationFailed.class,
                        e -> assertThat(e.verdict()).isEqualTo(WebhookSignature.Verdict.MISMATCH));
        assertThatThrownBy(() -> Webhooks.receive(List.of("whsec_new"), header, body, NOW.plusSeconds(301)))
                .isInstanceOf(Webhooks.VerificationFailed.class);
        assertThatThrownBy(() -> Webhooks.receive(List.of("whsec_new"), "t=" + Long.MIN_VALUE + ",v1=00", body, NOW))
                .isInstanceOf(Webhooks.VerificationFailed.class);
    }
}
