package dev.kopek.console;

/** The person acting in the console: the admin identity they logged in as, and where the request came from. */
public record Operator(String name, String clientIp) {
}
