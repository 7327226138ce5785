package dev.kopek.client;

/**
 * What the customer must do before the PSP decides a payment in status {@code requires_action} (3-D Secure):
 * {@code type} is the PSP's (Stripe: {@code redirect_to_url}, {@code use_stripe_sdk}); {@code redirectUrl} is where to
 * send the customer for {@code redirect_to_url}, null when the merchant's page completes it with the PSP's own script
 * and the payment's {@code pspReference}.
 */
public record NextAction(String type, String redirectUrl) {}
