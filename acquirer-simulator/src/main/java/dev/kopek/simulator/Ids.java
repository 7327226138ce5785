package dev.kopek.simulator;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Object ids such as {@code ch_3MmlLrLkdIwHu7ix0snN0B15}: 24 characters of [0-9A-Za-z], shaped like a real PSP's.
 * Not a hyphenated UUID: its digit groups, joined by hyphens (or a run of hex digits alone), read as a Luhn-valid card
 * number a few times in a thousand, and Kopek rightly refuses card data in every request body, so a test that sends
 * a charge id back (an operator's {@code psp_reference}) failed now and then. Unique, not unguessable; never contends.
 */
final class Ids {

    private static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final int LENGTH = 24;

    private Ids() {}

    static String next(String prefix) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        StringBuilder id = new StringBuilder(prefix.length() + LENGTH).append(prefix);
        for (int i = 0; i < LENGTH; i++) {
            id.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return id.toString();
    }
}
