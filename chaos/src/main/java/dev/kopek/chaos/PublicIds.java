package dev.kopek.chaos;

import java.util.HexFormat;
import java.util.UUID;

/** Kopek's public ids: a type prefix and the UUID's 32 hex digits ({@code pay_0190f3…}), as its API shows them. */
final class PublicIds {

    private PublicIds() {}

    static String payment(UUID id) {
        return format("pay", id);
    }

    static String refund(UUID id) {
        return format("re", id);
    }

    static String event(UUID id) {
        return format("evt", id);
    }

    static String format(String prefix, UUID id) {
        return prefix + "_" + HexFormat.of().toHexDigits(id.getMostSignificantBits())
                + HexFormat.of().toHexDigits(id.getLeastSignificantBits());
    }
}
