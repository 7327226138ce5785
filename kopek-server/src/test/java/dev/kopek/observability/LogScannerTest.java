package dev.kopek.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The log scan's rules on text built for the purpose. The random names programs put into the log (temporary folders,
 * UUIDs, generated hex ids) are built here in their worst case, every digit run Luhn-valid and beginning like a card
 * number, many thousand times: no finding among them is a proof by construction that no run of the build can fail
 * on a random name, where a scan of one real log only shows the names that run happened to draw.
 */
class LogScannerTest {

    private static final int NAMES = 100_000;

    /** Lines as the test log holds them, each with the place a program's generated name goes. */
    private static final List<String> GENERATED_NAMES = List.of(
            "2026-12-06T07:01:09.423Z  INFO 12786 --- [r-event-handler] [] kafka.log.LogManager                     :"
                    + " Loading logs from log dirs ArrayBuffer(/tmp/kafka-%s/combined_0_0)",
            "Formatting metadata directory /tmp/kafka-%s/combined_0_0 with metadata.version 4.2-IV1.",
            "embedded PostgreSQL with data in /tmp/junit-%s/postgres",
            "data folder: /tmp/junit%s",
            "Created log for partition kopek.events-%s in /tmp/x with properties {}",
            "opened %s.log and archive-%s.tar.gz on host node-%s.internal",
            "request req_%s answered");

    @Test
    void theScannerFindsWhatItLooksFor() {
        String planted = "x sk_test_abcdefgh12345678 y whsec_0123456789ab z 4111 1111 1111 1111 t-admin-token\n"
                + "ok: 2026-12-03T09:00:00.123Z took 1234567890123 ns pay_01a238f61f6677be91e459cc5f6b60c2";
        assertThat(LogScanner.findings(planted, List.of("t-admin-token"))).hasSize(4);
        assertThat(LogScanner.findings(planted.lines().toList().get(1), List.of()))
                .isEmpty();
        assertThat(LogScanner.findings(
                        "[traceId=6b11b170f75c49b45939479494382485, spanId=5939479494382485] key#=5939479494382485"
                                + " {\"span.id\":\"5939479494382485\"}",
                        List.of()))
                .as("generated ids that look like digits")
                .isEmpty();
        assertThat(LogScanner.findings("spanId=x note 5939479494382485", List.of()))
                .as("the same digits as text")
                .hasSize(1);
        assertThat(LogScanner.findings(
                        "embedded PostgreSQL with data in /tmp/junit-3018853807207120572/postgres", List.of()))
                .as("a JUnit temporary folder")
                .isEmpty();
        assertThat(LogScanner.findings("note 3018853807207120572", List.of()))
                .as("the same digits as text")
                .hasSize(1);
        String key = Api.newKey();
        assertThat(LogScanner.clearKeys("claimed " + key + " for pay_x", Api.issuedKeys()))
                .hasSize(1);
        assertThat(LogScanner.clearKeys("claimed key#=" + key.substring(0, 16) + " for pay_x", Api.issuedKeys()))
                .isEmpty();
    }

    @Test
    void aCardNumberStandingAloneIsFoundHoweverItIsWritten() {
        for (String line : List.of(
                "card 4111111111111111",
                "card 4111111111111111.",
                "card 4111 1111 1111 1111, declined",
                "card 4111-1111-1111-1111",
                "{\"payment_method\":\"4111111111111111\"}",
                "payment_method=4111111111111111&amount=1",
                "(4111111111111111)",
                "at /4111111111111111 ",
                "-4111111111111111")) {
            assertThat(LogScanner.findings(line, List.of())).as(line).hasSize(1);
        }
    }

    @Test
    void noGeneratedNameIsReadAsACardNumberEvenWhenEveryOneIsLuhnValid() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        for (String template : GENERATED_NAMES) {
            StringBuilder named = new StringBuilder();
            StringBuilder alone = new StringBuilder();
            for (int i = 0; i < NAMES; i++) {
                String digits = luhnValid(random, 13 + random.nextInt(7));
                named.append(template.replace("%s", digits)).append('\n');
                alone.append("note ").append(digits).append('\n');
            }
            List<String> found = LogScanner.findings(named.toString(), List.of());
            assertThat(found.stream().limit(3).toList())
                    .as("%s with seed %d: %d findings", template, seed, found.size())
                    .isEmpty();
            assertThat(LogScanner.findings(alone.toString(), List.of()))
                    .as("the same digits standing alone")
                    .hasSize(NAMES);
        }
    }

    @Test
    void noUuidIsReadAsACardNumberWhenItsLeadingGroupsAreDigits() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        List<Function<String, String>> uuids = List.of(
                digits -> digits.substring(0, 8) + "-" + digits.substring(8, 12) + "-" + digits.substring(12, 16) + "-a"
                        + hex(random, 3) + "-" + hex(random, 12),
                digits -> hex(random, 8) + "-" + digits.substring(0, 4) + "-" + digits.substring(4, 8) + "-"
                        + digits.substring(8, 12) + "-" + digits.substring(12, 16) + "abcdefab");
        for (Function<String, String> uuid : uuids) {
            StringBuilder logs = new StringBuilder();
            for (int i = 0; i < NAMES; i++) {
                logs.append("event evt_")
                        .append(uuid.apply(luhnValid(random, 16)))
                        .append(" for merchant ")
                        .append(uuid.apply(luhnValid(random, 16)))
                        .append('\n');
            }
            List<String> found = LogScanner.findings(logs.toString(), List.of());
            assertThat(found.stream().limit(3).toList())
                    .as("seed %d: %d findings", seed, found.size())
                    .isEmpty();
        }
    }

    /** {@code length} digits beginning as a card number does (3 to 6) and ending in the Luhn check digit. */
    private static String luhnValid(Random random, int length) {
        StringBuilder digits = new StringBuilder().append((char) ('3' + random.nextInt(4)));
        while (digits.length() < length - 1) {
            digits.append((char) ('0' + random.nextInt(10)));
        }
        for (char check = '0'; check <= '9'; check++) {
            if (LogScanner.luhn(digits.toString() + check)) {
                return digits.append(check).toString();
            }
        }
        throw new IllegalStateException("one of ten check digits always passes Luhn");
    }

    private static String hex(Random random, int length) {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < length; i++) {
            hex.append(Character.forDigit(random.nextInt(16), 16));
        }
        return hex.toString();
    }
}
