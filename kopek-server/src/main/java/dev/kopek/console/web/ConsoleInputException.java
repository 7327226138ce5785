package dev.kopek.console.web;

/** A console form or query the console refuses, with a sentence for the person who sent it. */
final class ConsoleInputException extends RuntimeException {

    ConsoleInputException(String message) {
        super(message, null, false, false);
    }
}
