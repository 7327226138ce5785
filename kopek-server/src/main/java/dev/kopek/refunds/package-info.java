/**
 * Refunds: accepted with a reservation that can never exceed what was captured, executed against the PSP
 * outside any transaction by an owner fenced by the refund's attempt number, reconciled like payments.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Refunds")
package dev.kopek.refunds;
