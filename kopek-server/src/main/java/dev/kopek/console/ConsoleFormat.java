package dev.kopek.console;

import dev.kopek.money.CurrencyCode;
import dev.kopek.money.PrefixedId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.Temporal;
import java.util.Locale;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * Formatting for the console's templates ({@code ${@fmt.money(...)}}). Money is minor units shifted by the
 * currency's exponent with integer arithmetic (4990.00 RUB, 500 JPY): never a float.
 */
@Component("fmt")
public class ConsoleFormat {

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private final Clock clock;

    ConsoleFormat(Clock clock) {
        this.clock = clock;
    }

    public String money(Object minor, Object currency) {
        if (minor == null || currency == null) {
            return "—";
        }
        long amount = ((Number) minor).longValue();
        String code = currency.toString().trim();
        int exponent = CurrencyCode.parse(code).map(CurrencyCode::exponent).orElse(0);
        return decimal(amount, exponent) + " " + code;
    }

    static String decimal(long minor, int exponent) {
        if (exponent == 0) {
            return Long.toString(minor);
        }
        String sign = minor < 0 ? "-" : "";
        String digits = Long.toString(Math.abs(minor));
        if (digits.length() <= exponent) {
            digits = "0".repeat(exponent - digits.length() + 1) + digits;
        }
        int point = digits.length() - exponent;
        return sign + digits.substring(0, point) + "." + digits.substring(point);
    }

    public String time(Object value) {
        Instant instant = instant(value);
        return instant == null ? "—" : TIME.format(instant);
    }

    /** "3m 12s", "2h 05m", "4d 03h": how long ago, for queues sorted by age. */
    public String age(Object value) {
        Instant instant = instant(value);
        if (instant == null) {
            return "—";
        }
        return duration(Duration.between(instant, clock.instant()));
    }

    public String seconds(double seconds) {
        return duration(Duration.ofMillis((long) (seconds * 1000)));
    }

    public static String duration(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return (s / 60) + "m " + String.format(Locale.ROOT, "%02ds", s % 60);
        }
        if (s < 86_400) {
            return (s / 3600) + "h " + String.format(Locale.ROOT, "%02dm", (s % 3600) / 60);
        }
        return (s / 86_400) + "d " + String.format(Locale.ROOT, "%02dh", (s % 86_400) / 3600);
    }

    /** A public id as the API shows it: {@code pay_…}, {@code mer_…}. */
    public String id(String prefix, Object uuid) {
        return uuid == null ? "—" : PrefixedId.format(prefix, (UUID) uuid);
    }

    public String lower(Object value) {
        return value == null ? "" : value.toString().toLowerCase(Locale.ROOT);
    }

    /** A CSS class per status family, so the eye finds what is stuck. */
    public String tone(Object status) {
        return switch (lower(status)) {
            case "captured",
                    "succeeded",
                    "authorized",
                    "refunded",
                    "partially_refunded",
                    "applied",
                    "won",
                    "resolved",
                    "cleared",
                    "enabled",
                    "found",
                    "completed" -> "ok";
            case "pending",
                    "unknown",
                    "in_progress",
                    "awaiting_result",
                    "candidate",
                    "open",
                    "inconclusive",
                    "processing" -> "warn";
            case "declined",
                    "failed",
                    "voided",
                    "expired",
                    "lost",
                    "charged_back",
                    "disputed",
                    "reported",
                    "conflict",
                    "disabled",
                    "cancelled" -> "bad";
            default -> "muted";
        };
    }

    private static Instant instant(Object value) {
        return switch (value) {
            case null -> null;
            case Instant i -> i;
            case OffsetDateTime o -> o.toInstant();
            case java.sql.Timestamp t -> t.toInstant();
            case Temporal t -> Instant.from(t);
            default -> null;
        };
    }
}
