/**
 * Daily settlement reconciliation: the PSP's file for a date is loaded idempotently ({@link SettlementFiles}),
 * matched against Kopek's captured payments, successful captures and succeeded refunds with one FULL OUTER JOIN by
 * PSP reference ({@link BreakMatcher}), and every difference is kept as a break that is reported only when two
 * consecutive passes of its date still show it. A charge Kopek does not know that belongs to one of its own unknown
 * attempts settles that attempt through the fenced take-over ({@link UnknownChargeResolver}). See
 * {@code docs/settlement.md}.
 */
@org.springframework.modulith.NamedInterface("settlement")
package dev.kopek.reconciliation.settlement;
