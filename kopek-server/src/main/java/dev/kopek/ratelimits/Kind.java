package dev.kopek.ratelimits;

import java.util.Locale;

/** Which bucket a request draws from: reads are cheap and frequent, writes claim keys and may move money. */
public enum Kind {
    WRITE,
    READ;

    public static Kind of(String httpMethod) {
        return httpMethod.equals("GET") || httpMethod.equals("HEAD") ? READ : WRITE;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
