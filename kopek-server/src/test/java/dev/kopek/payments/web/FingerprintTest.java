package dev.kopek.payments.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.idempotency.Fingerprint;
import dev.kopek.payments.domain.PaymentRequest;
import dev.kopek.support.Gen;
import dev.kopek.support.Property;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Properties of the request fingerprint, through the real parser: reformatting and reordering JSON never change
 * it; changing any business field always does.
 */
class FingerprintTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final PaymentRequestParser PARSER = new PaymentRequestParser(100_000_000_000L);

    record Body(
            String reference,
            long amount,
            String currency,
            String method,
            String description,
            Map<String, String> metadata) {}

    private static final Gen<Body> BODIES = bodies();

    private static Gen<Body> bodies() {
        Gen<String> references = Gen.strings(Gen.PRINTABLE, 1, 64);
        Gen<Long> amounts = Gen.longs(1, 100_000_000_000L);
        Gen<String> currencies = Gen.of("EUR", "RUB", "JPY", "USD", "KWD");
        Gen<String> methods = Gen.strings(Gen.LOWER, 1, 20).map(s -> "pm_" + s);
        // Absent about one time in three: a body without a description or metadata is a case of its own.
        Gen<String> descriptions = Gen.strings(Gen.ALPHA, 0, 40).orNull(3);
        Gen<Map<String, String>> metadata = Gen.maps(Gen.strings(Gen.ALPHA, 1, 8), Gen.strings(Gen.ALPHA, 0, 12), 5)
                .orNull(3);
        return c -> new Body(
                references.draw(c),
                amounts.draw(c),
                currencies.draw(c),
                methods.draw(c),
                descriptions.draw(c),
                metadata.draw(c));
    }

    /** A body and the seed of its reformatting. */
    record Shuffle(Body body, long seed) {}

    /** A body and another whose amount picks the field to change. */
    record Pair(Body body, Body other) {}

    @Test
    void reformattingAndReorderingNeverChangeTheFingerprint() {
        Gen<Long> seeds = Gen.longs(Long.MIN_VALUE, Long.MAX_VALUE);
        Property.check(300, c -> new Shuffle(BODIES.draw(c), seeds.draw(c)), shuffle -> {
            String canonical = render(shuffle.body(), new Random(shuffle.seed()), false);
            String shuffled = render(shuffle.body(), new Random(shuffle.seed() + 1), true);
            assertThat(fingerprint(shuffled)).isEqualTo(fingerprint(canonical));
        });
    }

    @Test
    void changingAnyBusinessFieldChangesTheFingerprint() {
        Property.check(
                300,
                c -> new Pair(BODIES.draw(c), BODIES.draw(c)),
                pair -> changingAFieldChangesTheFingerprint(pair.body(), pair.other()));
    }

    private static void changingAFieldChangesTheFingerprint(Body body, Body other) {
        Body changed = switch ((int) Math.floorMod(other.amount(), 5L)) {
            case 0 ->
                new Body(
                        mutate(body.reference()),
                        body.amount(),
                        body.currency(),
                        body.method(),
                        body.description(),
                        body.metadata());
            case 1 ->
                new Body(
                        body.reference(),
                        body.amount() == 1 ? 2 : body.amount() - 1,
                        body.currency(),
                        body.method(),
                        body.description(),
                        body.metadata());
            case 2 ->
                new Body(
                        body.reference(),
                        body.amount(),
                        body.currency().equals("EUR") ? "USD" : "EUR",
                        body.method(),
                        body.description(),
                        body.metadata());
            case 3 ->
                new Body(
                        body.reference(),
                        body.amount(),
                        body.currency(),
                        body.method() + "z",
                        body.description(),
                        body.metadata());
            default ->
                new Body(
                        body.reference(),
                        body.amount(),
                        body.currency(),
                        body.method(),
                        body.description() == null ? "" : body.description() + "!",
                        body.metadata());
        };
        Random random = new Random(1);
        assertThat(fingerprint(render(changed, random, false))).isNotEqualTo(fingerprint(render(body, random, false)));
    }

    @Test
    void lengthPrefixesRuleOutSeparatorCollisions() {
        Property.check(200, BODIES, body -> {
            String a = Fingerprint.of("ab", "c");
            String b = Fingerprint.of("a", "bc");
            assertThat(a).isNotEqualTo(b);
            assertThat(Fingerprint.of((String) null)).isNotEqualTo(Fingerprint.of(""));
            assertThat(Fingerprint.of(body.reference(), "1")).isNotEqualTo(Fingerprint.of(body.reference() + "1:1"));
        });
    }

    private static String mutate(String reference) {
        char first = reference.charAt(0) == 'x' ? 'y' : 'x';
        return first + reference.substring(1);
    }

    private static String fingerprint(String json) {
        PaymentRequest request = PARSER.parse((ObjectNode) JSON.readTree(json));
        return Fingerprint.of(request.canonicalFields());
    }

    private static String render(Body body, Random random, boolean shuffle) {
        List<String> fields = new ArrayList<>();
        fields.add(quote("reference") + ":" + quote(body.reference()));
        fields.add(quote("amount") + " : " + body.amount());
        fields.add(quote("currency") + ":" + quote(body.currency()));
        fields.add(quote("payment_method") + ":\n" + quote(body.method()));
        if (body.description() != null) {
            fields.add(quote("description") + ":" + quote(body.description()));
        }
        if (body.metadata() != null) {
            List<String> pairs = new ArrayList<>();
            new TreeMap<>(body.metadata()).forEach((k, v) -> pairs.add(quote(k) + ":" + quote(v)));
            if (shuffle) {
                Collections.shuffle(pairs, random);
            }
            fields.add(quote("metadata") + ":{" + String.join(", ", pairs) + "}");
        }
        if (shuffle) {
            Collections.shuffle(fields, random);
        }
        String space = shuffle ? " ".repeat(random.nextInt(3)) : "";
        return "{" + space + String.join("," + space + "\n", fields) + space + "}";
    }

    private static String quote(String text) {
        return JSON.writeValueAsString(text);
    }
}
