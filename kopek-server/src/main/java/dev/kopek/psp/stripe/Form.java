package dev.kopek.psp.stripe;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A form-encoded body in the order fields were added (Stripe's API takes {@code application/x-www-form-urlencoded}). */
final class Form {

    private final List<String> pairs = new ArrayList<>();

    Form add(String name, String value) {
        pairs.add(encode(name) + "=" + encode(value));
        return this;
    }

    String encoded() {
        return String.join("&", pairs);
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
