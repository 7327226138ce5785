package dev.kopek.psp;

/** The result of checking a notification's signature and reading it. */
public sealed interface NotificationCheck {

    record Valid(PspNotification notification) implements NotificationCheck {
    }

    /** Refused before anything is stored: bad, missing or stale signature, or an unreadable body. */
    record Invalid(String reason) implements NotificationCheck {
    }
}
