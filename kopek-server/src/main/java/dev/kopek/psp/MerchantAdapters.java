package dev.kopek.psp;

/** Builds one merchant's adapter from its own credentials at a PSP (today Stripe's; see psp.stripe). */
public interface MerchantAdapters {

    /** The PSP's name, as {@link PaymentProvider#name()} and {@code merchant_psp.provider} spell it. */
    String provider();

    /** The merchant's adapter, wrapped like every adapter (metrics, call log) with its own account's circuit. */
    PaymentProvider build(MerchantPsp psp);

    /** Reads notifications stored after they were verified, whoever's secret verified them. */
    PspNotification readVerifiedNotification(String body);
}
