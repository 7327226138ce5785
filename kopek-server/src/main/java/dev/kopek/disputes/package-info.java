/**
 * Disputes (chargebacks) reported by the PSP: recorded once per PSP dispute id, moving the payment to DISPUTED and
 * then back (won) or to CHARGED_BACK (lost), with their money movements and events.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Disputes")
package dev.kopek.disputes;
