/**
 * The laws audited in production (issue 26 §2): a scheduled, bounded, incremental job that runs every module's
 * {@link dev.kopek.platform.InvariantCheck} a slice at a time, each with its own cursor, and makes what they find
 * a metric ({@code kopek_audit_violations}), an ERROR line, a review item and the console's Invariants page. It
 * reads no other module's table: each check belongs to the module whose tables it reads.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Invariant audit")
package dev.kopek.invariants;
