package dev.kopek.console.web;

/**
 * A console form or query the console refuses, with a sentence for the person who sent it: a 400 page, or a 404
 * page for a well-formed id that names nothing.
 */
final class ConsoleInputException extends RuntimeException {

    private final boolean notFound;

    ConsoleInputException(String message) {
        this(message, false);
    }

    private ConsoleInputException(String message, boolean notFound) {
        super(message, null, false, false);
        this.notFound = notFound;
    }

    static ConsoleInputException notFound(String message) {
        return new ConsoleInputException(message, true);
    }

    boolean isNotFound() {
        return notFound;
    }
}
