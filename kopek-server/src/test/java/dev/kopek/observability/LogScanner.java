package dev.kopek.observability;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@link LogScanTest} looks for in a log, apart from the test run that writes it, so the rules can be checked on
 * text built for the purpose ({@code LogScannerTest}).
 *
 * <p>A card number that L12 forbids is card data as Kopek receives it: a payment method, a word of free text, a JSON
 * or form value. In a log it stands alone: a run of 13–19 digits, possibly grouped by single spaces or dashes, with
 * no letter, digit or underscore beside it and no {@code - _ / .} that joins it to one. A digit run that is part of a
 * longer token is a name that a program generated (a folder {@code /tmp/kafka-<random long>} or
 * {@code junit<random long>}, a UUID's leading groups, a file, a host, a version), and such names are random: read as
 * card numbers, one in ten Luhn-valid runs failed the build on a clean clone. Fixing the name that failed last
 * (JUnit's folders were exempted, then Kafka's broke) leaves the next name to fail; excluding the whole shape does
 * not. A card number a client smuggles into a URL or a name is refused at the door (InputText, CardNumbers) and
 * {@code CardDataTest} checks those exact digits never reach the output.
 */
final class LogScanner {

    private static final Pattern API_KEY = Pattern.compile("sk_(test|live)_[A-Za-z0-9_-]{8,}");
    private static final Pattern SECRET = Pattern.compile("whsec_[A-Za-z0-9_-]{8,}");
    /**
     * Values of the fields that carry 16-hex-digit ids Kopek and its tracer generate (span ids, key hashes): stand-
     * alone, and now and then all decimal digits, of which one in ten passes Luhn. They are never card data.
     */
    private static final Pattern GENERATED_HEX_ID =
            Pattern.compile("((?:spanId|span_id|span\\.id|key_hash|key#)\"?\\s*[=:]\\s*\"?)[0-9a-f]{16}(?![0-9a-f])");

    private static final String WORD = "[\\p{L}\\p{N}_]";
    private static final String JOINER = "[-/.]";
    /** A standalone run of 13–19 digits that could begin a card number (3 to 6), groups split by a space or a dash. */
    private static final Pattern CARD = Pattern.compile("(?<!" + WORD + ")(?<!" + WORD + JOINER + ")"
            + "[3-6](?:[ -]?[0-9]){12,18}"
            + "(?!" + WORD + ")(?!" + JOINER + WORD + ")");

    private static final Pattern UUID_SHAPED =
            Pattern.compile("(?<![0-9a-f])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-f])");

    private LogScanner() {}

    /** Known secrets, secret-shaped tokens and Luhn-valid standalone card numbers in {@code text}, described. */
    static List<String> findings(String text, List<String> secrets) {
        String logs = GENERATED_HEX_ID.matcher(text).replaceAll("$1<hex>");
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

    /**
     * The idempotency keys of the whole run (every {@code Api.newKey()}, tens of thousands) that appear in the log:
     * the log's key-shaped tokens are collected once and looked up, rather than searching the log for each key.
     */
    static List<String> clearKeys(String logs, Set<String> keys) {
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

    static boolean luhn(String digits) {
        int sum = 0;
        for (int i = 0; i < digits.length(); i++) {
            int d = digits.charAt(digits.length() - 1 - i) - '0';
            sum += i % 2 == 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d;
        }
        return sum % 10 == 0;
    }
}
