package dev.kopek.psp;

/** The port every PSP adapter implements. Calls are made with no transaction open and no connection held (L3). */
public interface PaymentProvider {

    String name();

    IdempotencyContract contract();

    /**
     * Sends a request of any kind (a payment's charge, a capture, a void, a refund), retrying transport failures
     * with the same key inside the time budget.
     */
    ChargeOutcome execute(PspRequest request);

    /** The same with exactly one request and no retry: for a reclaimed attempt that has already asked by key. */
    ChargeOutcome executeOnce(PspRequest request);

    /** Asks what the PSP holds under the request's provider key. */
    LookupResult lookup(PspRequest request);

    /** The header that carries the notification signature. */
    String notificationSignatureHeader();

    /**
     * Verifies a notification's signature (HMAC over timestamp and body, 5-minute tolerance, constant-time
     * comparison) before reading anything else from it.
     */
    NotificationCheck verifyNotification(String signatureHeader, String body);

    /** Reads a notification that was verified when it arrived and stored raw. */
    PspNotification readVerifiedNotification(String body);

    /** The settlement report for one value date; a report that cannot be fetched or read throws. */
    SettlementReport settlementReport(java.time.LocalDate date);

    /**
     * Whether this account can capture part of an authorization and leave the rest capturable for a later capture (a
     * non-final partial capture). Where it cannot, a capture either takes what remains or releases the rest, and
     * Kopek refuses a non-final partial capture before anything is stored or sent.
     */
    boolean capturesInParts();

    /** Which of Kopek's provider keys created this PSP object (charge, capture or refund), if the PSP says. */
    java.util.Optional<String> providerKeyOf(String pspReference);
}
