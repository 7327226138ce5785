package dev.kopek.payments.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.idempotency.Fingerprint;
import dev.kopek.payments.domain.PaymentRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import tools.jackson.databind.json.JsonMapper;

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

    @Provide
    Arbitrary<Body> bodies() {
        return Combinators.combine(
                        Arbitraries.strings()
                                .withCharRange('!', '~')
                                .ofMinLength(1)
                                .ofMaxLength(64),
                        Arbitraries.longs().between(1, 100_000_000_000L),
                        Arbitraries.of("EUR", "RUB", "JPY", "USD", "KWD"),
                        Arbitraries.strings()
                                .withCharRange('a', 'z')
                                .ofMinLength(1)
                                .ofMaxLength(20)
                                .map(s -> "pm_" + s),
                        Arbitraries.strings().alpha().ofMaxLength(40).injectNull(0.3),
                        Arbitraries.maps(
                                        Arbitraries.strings()
                                                .alpha()
                                                .ofMinLength(1)
                                                .ofMaxLength(8),
                                        Arbitraries.strings().alpha().ofMaxLength(12))
                                .ofMaxSize(5)
                                .injectNull(0.3))
                .as(Body::new);
    }

    @Property(tries = 300)
    void reformattingAndReorderingNeverChangeTheFingerprint(@ForAll("bodies") Body body, @ForAll long seed) {
        String canonical = render(body, new Random(seed), false);
        String shuffled = render(body, new Random(seed + 1), true);
        assertThat(fingerprint(shuffled)).isEqualTo(fingerprint(canonical));
    }

    @Property(tries = 300)
    void changingAnyBusinessFieldChangesTheFingerprint(@ForAll("bodies") Body body, @ForAll("bodies") Body other) {
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

    @Property(tries = 200)
    void lengthPrefixesRuleOutSeparatorCollisions(@ForAll("bodies") Body body) {
        String a = Fingerprint.of("ab", "c");
        String b = Fingerprint.of("a", "bc");
        assertThat(a).isNotEqualTo(b);
        assertThat(Fingerprint.of((String) null)).isNotEqualTo(Fingerprint.of(""));
        assertThat(Fingerprint.of(body.reference(), "1")).isNotEqualTo(Fingerprint.of(body.reference() + "1:1"));
    }

    private static String mutate(String reference) {
        char first = reference.charAt(0) == 'x' ? 'y' : 'x';
        return first + reference.substring(1);
    }

    private static String fingerprint(String json) {
        PaymentRequest request = PARSER.parse((tools.jackson.databind.node.ObjectNode) JSON.readTree(json));
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
