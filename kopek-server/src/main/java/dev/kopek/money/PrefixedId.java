package dev.kopek.money;

import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;

/** Public ids are a type prefix and the UUID's 32 hex digits: {@code pay_0190f3…}. */
public final class PrefixedId {

    private PrefixedId() {}

    public static String format(String prefix, UUID id) {
        return prefix + "_" + HexFormat.of().toHexDigits(id.getMostSignificantBits())
                + HexFormat.of().toHexDigits(id.getLeastSignificantBits());
    }

    /**
     * The grammar is ASCII only: {@code Character.digit} also takes Arabic-Indic and fullwidth digits, which
     * {@code HexFormat} then refuses with an exception (a 500 on every route that takes an id).
     */
    private static boolean isLowerHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }

    /** Anything that is not a well-formed id of this type is simply not found. */
    public static Optional<UUID> parse(String prefix, String text) {
        if (text == null || text.length() != prefix.length() + 33 || !text.startsWith(prefix + "_")) {
            return Optional.empty();
        }
        String hex = text.substring(prefix.length() + 1);
        for (int i = 0; i < hex.length(); i++) {
            if (!isLowerHex(hex.charAt(i))) {
                return Optional.empty();
            }
        }
        return Optional.of(
                new UUID(HexFormat.fromHexDigitsToLong(hex, 0, 16), HexFormat.fromHexDigitsToLong(hex, 16, 32)));
    }
}
