package dev.kopek.psp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The edge cases every PSP's notification signature shares, checked once on the one verifier; each adapter's own
 * scheme is checked end to end by AdapterContractTest and the adapters' tests.
 */
class NotificationSignatureTest {

    private static final Instant NOW = Instant.parse("2026-12-06T10:00:00Z");
    private static final Duration TOLERANCE = Duration.ofMinutes(5);
    private static final NotificationSignature.Scheme SCHEME = new NotificationSignature.Scheme(
            "Psp-Signature", "v1", NotificationSignature.SignedPayload.TIMESTAMP_DOT_BODY, TOLERANCE);
    private static final String SECRET = "whsec_current";
    private static final String BODY = "{\"id\":\"evt_1\",\"amount\":1000}";
    private static final NotificationCheck READ = new NotificationCheck.Valid(null);
    private static final Function<String, NotificationCheck> READER = body -> READ;

    private final NotificationSignature verifier =
            new NotificationSignature(SCHEME, List.of(SECRET), Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void aGoodSignatureIsReadAndNothingElseIs() {
        assertThat(verify(sign(SECRET, NOW), BODY)).isSameAs(READ);
        Function<String, NotificationCheck> mustNotRead = body -> {
            throw new AssertionError("a refused notification was read");
        };
        assertThat(verifier.verify(sign("whsec_other", NOW), BODY, mustNotRead))
                .isInstanceOf(NotificationCheck.Invalid.class);
    }

    @Test
    void aWrongSecretOrAChangedBodyDoesNotMatch() {
        assertThat(reason(sign("whsec_other", NOW), BODY)).isEqualTo("signature does not match");
        assertThat(reason(sign(SECRET, NOW), BODY.replace("1000", "1001"))).isEqualTo("signature does not match");
        assertThat(reason(
                        sign(SECRET, NOW).replace("t=" + NOW.getEpochSecond(), "t=" + (NOW.getEpochSecond() - 1)),
                        BODY))
                .as("the timestamp is signed too")
                .isEqualTo("signature does not match");
    }

    @Test
    void theToleranceHoldsBothWaysToTheSecond() {
        assertThat(verify(sign(SECRET, NOW.minus(TOLERANCE)), BODY)).isSameAs(READ);
        assertThat(verify(sign(SECRET, NOW.plus(TOLERANCE)), BODY)).isSameAs(READ);
        assertThat(reason(sign(SECRET, NOW.minus(TOLERANCE).minusSeconds(1)), BODY))
                .startsWith("signature timestamp more than 300 seconds from now");
        assertThat(reason(sign(SECRET, NOW.plus(TOLERANCE).plusSeconds(1)), BODY))
                .startsWith("signature timestamp more than 300 seconds from now");
        assertThat(reason(sign("whsec_other", NOW.minus(Duration.ofDays(1))), BODY))
                .as("the signature is checked first: a forger learns nothing about the clock")
                .isEqualTo("signature does not match");
    }

    @Test
    void anyOfSeveralSignaturesAndAnyOfSeveralSecretsMayMatch() {
        String good = sign(SECRET, NOW);
        String wrong = sign("whsec_other", NOW).split(",")[1];
        assertThat(verify(good + "," + wrong, BODY)).isSameAs(READ);
        assertThat(verify("t=" + NOW.getEpochSecond() + "," + wrong + "," + good.split(",")[1], BODY))
                .isSameAs(READ);
        NotificationSignature rolling =
                new NotificationSignature(SCHEME, List.of("whsec_next", SECRET), Clock.fixed(NOW, ZoneOffset.UTC));
        assertThat(rolling.verify(sign(SECRET, NOW), BODY, READER)).isSameAs(READ);
        assertThat(rolling.verify(sign("whsec_next", NOW), BODY, READER)).isSameAs(READ);
    }

    @Test
    void aBoundedNumberOfSignaturesIsRead() {
        String wrong = sign("whsec_other", NOW).split(",")[1];
        String eight = "t=" + NOW.getEpochSecond() + ("," + wrong).repeat(NotificationSignature.MAX_SIGNATURES);
        assertThat(reason(eight, BODY)).isEqualTo("signature does not match");
        assertThat(reason(eight + "," + sign(SECRET, NOW).split(",")[1], BODY))
                .isEqualTo("malformed signature: more than 8 signatures");
    }

    @Test
    void malformedHeadersAreRefusedWithTheirReason() {
        String t = "t=" + NOW.getEpochSecond();
        String v1 = sign(SECRET, NOW).split(",")[1];
        assertThat(reason(null, BODY)).isEqualTo("missing signature: no Psp-Signature header");
        assertThat(reason("  ", BODY)).isEqualTo("missing signature: no Psp-Signature header");
        assertThat(reason(t + "," + v1 + ",x=" + "0".repeat(NotificationSignature.MAX_HEADER), BODY))
                .isEqualTo("malformed signature: longer than 1024 characters");
        assertThat(reason(v1, BODY)).isEqualTo("malformed signature: no timestamp of 1 to 12 digits");
        assertThat(reason("t=soon," + v1, BODY)).isEqualTo("malformed signature: no timestamp of 1 to 12 digits");
        assertThat(reason("t=-1," + v1, BODY)).isEqualTo("malformed signature: no timestamp of 1 to 12 digits");
        assertThat(reason("t=1234567890123," + v1, BODY))
                .isEqualTo("malformed signature: no timestamp of 1 to 12 digits");
        assertThat(reason(t + "," + t + "," + v1, BODY)).isEqualTo("malformed signature: more than one timestamp");
        assertThat(reason(t, BODY)).isEqualTo("malformed signature: no v1 signature");
        assertThat(reason(t + "," + v1.replace("v1=", "v0="), BODY))
                .as("another scheme's key is not a signature here")
                .isEqualTo("malformed signature: no v1 signature");
        assertThat(reason(t + ",v1=zz" + v1.substring(5), BODY))
                .isEqualTo("malformed signature: a signature is not hexadecimal");
        assertThat(reason(t + ",v1=abc", BODY)).isEqualTo("malformed signature: a signature is not hexadecimal");
        assertThat(verify(" " + t + " , " + v1 + " ", BODY))
                .as("blanks around the parts")
                .isSameAs(READ);
    }

    @Test
    void anAccountWithoutASecretVerifiesNothing() {
        for (List<String> secrets : List.of(Collections.<String>emptyList(), List.of(""))) {
            NotificationSignature none = new NotificationSignature(SCHEME, secrets, Clock.fixed(NOW, ZoneOffset.UTC));
            assertThat(none.verify(sign(SECRET, NOW), BODY, READER))
                    .isEqualTo(new NotificationCheck.Invalid("no signing secret is configured for this PSP account"));
        }
    }

    @Test
    void theSignedPayloadIsTheSchemes() {
        NotificationSignature.Scheme bodyOnly =
                new NotificationSignature.Scheme("Psp-Signature", "v1", (timestamp, body) -> body, TOLERANCE);
        NotificationSignature verifiesBodyOnly =
                new NotificationSignature(bodyOnly, List.of(SECRET), Clock.fixed(NOW, ZoneOffset.UTC));
        String signedBodyOnly = NotificationSignature.sign(bodyOnly, SECRET, NOW.getEpochSecond(), BODY);

        assertThat(verifiesBodyOnly.verify(signedBodyOnly, BODY, READER)).isSameAs(READ);
        assertThat(reason(signedBodyOnly, BODY)).isEqualTo("signature does not match");
        assertThat(verifiesBodyOnly.verify(sign(SECRET, NOW), BODY, READER))
                .isEqualTo(new NotificationCheck.Invalid("signature does not match"));
    }

    private NotificationCheck verify(String header, String body) {
        return verifier.verify(header, body, READER);
    }

    private String reason(String header, String body) {
        NotificationCheck check = verify(header, body);
        assertThat(check).isInstanceOf(NotificationCheck.Invalid.class);
        return ((NotificationCheck.Invalid) check).reason();
    }

    private static String sign(String secret, Instant at) {
        return NotificationSignature.sign(SCHEME, secret, at.getEpochSecond(), BODY);
    }
}
