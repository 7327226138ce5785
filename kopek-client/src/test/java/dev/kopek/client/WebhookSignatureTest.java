package dev.kopek.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WebhookSignatureTest {

    private static final String SECRET = "whsec_test";
    private static final String BODY = "{\"id\":\"evt_1\",\"type\":\"payment.captured\"}";
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    @Test
    void aFreshSignatureOverTheExactBodyIsValid() {
        String header = WebhookSignature.header(SECRET, NOW.getEpochSecond(), BODY);
        assertThat(header).matches("t=\\d+,v1=[0-9a-f]{64}");
        assertThat(WebhookSignature.verify(SECRET, header, BODY, NOW)).isEqualTo(WebhookSignature.Verdict.VALID);
        assertThat(WebhookSignature.verify(SECRET, header, BODY, NOW.plus(Duration.ofMinutes(5)))
                        .valid())
                .isTrue();
    }

    @Test
    void knownVectorMatchesHmacSha256OverTimestampDotBody() {
        // HMAC-SHA256("whsec_test", "1700000000.{}") computed independently (openssl dgst -sha256 -hmac).
        assertThat(WebhookSignature.header(SECRET, 1_700_000_000L, "{}"))
                .isEqualTo("t=1700000000,v1=35495024f4ef3f94e5a93e22221544c4b75e9a42300cd965ab81cb85cd994e91");
    }

    @Test
    void oldTamperedOrMalformedSignaturesAreRefused() {
        String header = WebhookSignature.header(SECRET, NOW.getEpochSecond(), BODY);
        assertThat(WebhookSignature.verify(
                        SECRET, header, BODY, NOW.plus(Duration.ofMinutes(5).plusSeconds(1))))
                .isEqualTo(WebhookSignature.Verdict.TIMESTAMP_OUTSIDE_TOLERANCE);
        assertThat(WebhookSignature.verify(SECRET, header, BODY, NOW.minus(Duration.ofMinutes(6))))
                .isEqualTo(WebhookSignature.Verdict.TIMESTAMP_OUTSIDE_TOLERANCE);
        assertThat(WebhookSignature.verify(SECRET, header, BODY.replace("captured", "refunded"), NOW))
                .isEqualTo(WebhookSignature.Verdict.MISMATCH);
        assertThat(WebhookSignature.verify("whsec_other", header, BODY, NOW))
                .isEqualTo(WebhookSignature.Verdict.MISMATCH);
        assertThat(WebhookSignature.verify(SECRET, null, BODY, NOW)).isEqualTo(WebhookSignature.Verdict.MALFORMED);
        assertThat(WebhookSignature.verify(SECRET, "t=abc,v1=00", BODY, NOW))
                .isEqualTo(WebhookSignature.Verdict.MALFORMED);
        assertThat(WebhookSignature.verify(SECRET, "t=" + NOW.getEpochSecond(), BODY, NOW))
                .isEqualTo(WebhookSignature.Verdict.MALFORMED);
    }

    @Test
    void anyOfSeveralSignaturesMayMatchDuringARotation() {
        String fresh = WebhookSignature.header(SECRET, NOW.getEpochSecond(), BODY);
        String rotated =
                "t=" + NOW.getEpochSecond() + ",v1=" + "00".repeat(32) + "," + fresh.substring(fresh.indexOf("v1="));
        assertThat(WebhookSignature.verify(SECRET, rotated, BODY, NOW)).isEqualTo(WebhookSignature.Verdict.VALID);
    }
}
