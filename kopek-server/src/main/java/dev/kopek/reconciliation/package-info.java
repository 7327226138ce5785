/**
 * Recovery workers that run in every instance and coordinate only through the database: the stuck-attempt
 * reconciler, key cleanup, and the manual-review queue with its admin API.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Reconciliation")
package dev.kopek.reconciliation;
