package dev.kopek.payments.domain;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises primary account numbers so Kopek never stores one (L12): 12–19 digits, optionally grouped by
 * spaces or dashes, that pass the Luhn check.
 */
public final class CardNumbers {

    private static final Pattern DIGIT_RUN = Pattern.compile("\\d[\\d -]{10,}\\d");

    private CardNumbers() {
    }

    public static boolean looksLikeCardNumber(String text) {
        String digits = text.replace(" ", "").replace("-", "");
        return digits.length() >= 12 && digits.length() <= 19 && digits.chars().allMatch(Character::isDigit)
                && passesLuhn(digits);
    }

    /** Whether any run of digits inside free text looks like a card number. */
    public static boolean containsCardNumber(String text) {
        Matcher runs = DIGIT_RUN.matcher(text);
        while (runs.find()) {
            if (looksLikeCardNumber(runs.group())) {
                return true;
            }
        }
        return false;
    }

    static boolean passesLuhn(String digits) {
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
