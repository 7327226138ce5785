package dev.kopek.client;

import java.time.Duration;

/**
 * How the client waits between tries and polls. The real one sleeps; tests record the waits instead, so they can
 * assert that a {@code Retry-After} was honoured without measuring time.
 */
@FunctionalInterface
interface Pause {

    Pause SLEEP = wait -> {
        try {
            Thread.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KopekException("interrupted while waiting; retry with the same key", e);
        }
    };

    void pause(Duration wait);
}
