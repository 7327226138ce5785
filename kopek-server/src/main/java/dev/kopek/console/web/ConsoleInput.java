package dev.kopek.console.web;

import dev.kopek.money.PrefixedId;
import dev.kopek.platform.CardNumbers;
import dev.kopek.platform.InputText;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/** Reading what a person typed into a console form: limits first, then meaning; a refusal says which field. */
final class ConsoleInput {

    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Set<String> STATUSES = Set.of(
            "PENDING",
            "UNKNOWN",
            "AUTHORIZED",
            "CAPTURED",
            "PARTIALLY_REFUNDED",
            "REFUNDED",
            "DECLINED",
            "FAILED",
            "VOIDED",
            "EXPIRED",
            "DISPUTED",
            "CHARGED_BACK");

    private ConsoleInput() {}

    /**
     * Blank is "not given"; longer than {@code max}, or with control characters (C0 but line breaks and tabs, C1,
     * DEL, a lone surrogate half) is refused, as the API refuses them.
     */
    static String text(String value, String field, int max) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String trimmed = value.strip();
        if (trimmed.length() > max
                || !InputText.isClean(
                        trimmed.replace('\n', ' ').replace('\r', ' ').replace('\t', ' '))) {
            throw new ConsoleInputException(field + " must be at most " + max + " characters of text.");
        }
        return trimmed;
    }

    /**
     * Text that is stored and audited (a note, a PSP reference): as {@link #text}, and never a card number, which
     * Kopek does not store. The refusal does not repeat what was typed.
     */
    static String stored(String value, String field, int max, boolean required) {
        String text = required ? required(value, field, max) : text(value, field, max);
        if (text != null && CardNumbers.containsCardNumber(text)) {
            throw new ConsoleInputException(field + " must not contain a card number; nothing was changed.");
        }
        return text;
    }

    static String required(String value, String field, int max) {
        String text = text(value, field, max);
        if (text == null) {
            throw new ConsoleInputException(field + " is required.");
        }
        return text;
    }

    static UUID id(String prefix, String value, String field) {
        return PrefixedId.parse(prefix, value == null ? "" : value.strip())
                .orElseThrow(() -> new ConsoleInputException(field + " is not a " + prefix + "_… id."));
    }

    static String status(String value) {
        String text = text(value, "status", 40);
        if (text == null) {
            return null;
        }
        String upper = text.toUpperCase(Locale.ROOT);
        if (!STATUSES.contains(upper)) {
            throw new ConsoleInputException("status is not a payment status.");
        }
        return upper;
    }

    /** A day as yyyy-mm-dd, as the start of that day in UTC; {@code endOfDay} gives the start of the next one. */
    static Instant day(String value, String field, boolean endOfDay) {
        String text = text(value, field, 10);
        if (text == null) {
            return null;
        }
        try {
            if (!DATE.matcher(text).matches()) {
                throw new DateTimeParseException("shape", text, 0);
            }
            LocalDate day = LocalDate.parse(text);
            return (endOfDay ? day.plusDays(1) : day).atStartOfDay().toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new ConsoleInputException(field + " is a date as yyyy-mm-dd.");
        }
    }
}
