package dev.kopek.psp;

/** The result of checking a notification's signature and reading it. */
public sealed interface NotificationCheck {

    record Valid(PspNotification notification) implements NotificationCheck {}

    /** Refused before anything is stored: bad, missing or stale signature, or an unreadable body. */
    record Invalid(String reason) implements NotificationCheck {}

    /**
     * Correctly signed, but a field Kopek would act on cannot be stored or applied (a control character, a
     * timestamp out of range): refused with the field's name, nothing stored.
     */
    record Malformed(String field, String reason) implements NotificationCheck {}
}
