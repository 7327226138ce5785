/**
 * The double-entry ledger (L8): every {@link dev.kopek.events.MoneyMovement} becomes one balanced journal
 * transaction, posted in the transaction that records the movement: as a part of the statement that records it, or
 * through the listener ({@code MoneyMovementListener}) when several statements do. The journal is append-only and balanced by
 * PostgreSQL itself; balances are a projection kept beside it and checked against it. Posting rules live in
 * {@code domain}, SQL in {@code jdbc}, the balance and journal API in {@code web}.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Ledger")
package dev.kopek.ledger;
