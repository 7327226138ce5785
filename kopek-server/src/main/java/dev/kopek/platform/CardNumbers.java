package dev.kopek.platform;

import java.util.ArrayList;
import java.util.List;

/**
 * Recognises primary account numbers inside any text so Kopek never stores or logs one (L12): a run of 13–19
 * digits, possibly split into groups by spaces or dashes, that passes the Luhn check. A longer run is examined
 * group by group, so {@code "order 12 4111 1111 1111 1111"} is caught; digits are any Unicode decimal digits.
 */
public final class CardNumbers {

    static final int MIN_DIGITS = 13;
    static final int MAX_DIGITS = 19;
    private static final int MAX_SEPARATOR = 3;

    private CardNumbers() {}

    /** Whether any run of digits inside free text holds a card number. */
    public static boolean containsCardNumber(String text) {
        int i = 0;
        while (i < text.length()) {
            if (!Character.isDigit(text.charAt(i))) {
                i++;
                continue;
            }
            List<String> groups = new ArrayList<>();
            i = run(text, i, groups);
            if (containsCard(groups)) {
                return true;
            }
        }
        return false;
    }

    /** Reads groups of digits joined by short separators from {@code start}; returns where the run ends. */
    private static int run(String text, int start, List<String> groups) {
        StringBuilder group = new StringBuilder();
        int i = start;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isDigit(c)) {
                group.append((char) ('0' + Character.digit(c, 10)));
                i++;
                continue;
            }
            int separator = separatorLength(text, i);
            if (group.isEmpty()
                    || separator == 0
                    || i + separator >= text.length()
                    || !Character.isDigit(text.charAt(i + separator))) {
                break;
            }
            groups.add(group.toString());
            group.setLength(0);
            i += separator;
        }
        if (!group.isEmpty()) {
            groups.add(group.toString());
        }
        return i;
    }

    private static int separatorLength(String text, int at) {
        int length = 0;
        while (at + length < text.length() && length <= MAX_SEPARATOR && isSeparator(text.charAt(at + length))) {
            length++;
        }
        return length <= MAX_SEPARATOR ? length : 0;
    }

    private static boolean isSeparator(char c) {
        return Character.isSpaceChar(c) || c == '-' || Character.getType(c) == Character.DASH_PUNCTUATION;
    }

    /** Any window of whole consecutive groups with 13–19 digits that passes Luhn. */
    private static boolean containsCard(List<String> groups) {
        for (int first = 0; first < groups.size(); first++) {
            StringBuilder digits = new StringBuilder();
            for (int last = first; last < groups.size() && digits.length() <= MAX_DIGITS; last++) {
                digits.append(groups.get(last));
                if (digits.length() >= MIN_DIGITS && digits.length() <= MAX_DIGITS && passesLuhn(digits)) {
                    return true;
                }
            }
        }
        return false;
    }

    static boolean passesLuhn(CharSequence digits) {
        int sum = 0;
        boolean doubled = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = digits.charAt(i) - '0';
            if (doubled) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
            doubled = !doubled;
        }
        return sum % 10 == 0;
    }
}
