/**
 * Payment intents and attempts: the three phases (claim, PSP call, fenced recording), resumption of stuck
 * attempts, and the {@code /v1/payments} API. The pure state machine lives in {@code domain}.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Payments")
package dev.kopek.payments;
