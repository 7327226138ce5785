/**
 * The audit trail: who did what to which object, from where, when, and what changed. Append-only in PostgreSQL,
 * written in the transaction of the action it records. Any module records through {@link dev.kopek.audit.AuditTrail}
 * with the {@link dev.kopek.audit.Actor} its handler received.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Audit")
package dev.kopek.audit;
