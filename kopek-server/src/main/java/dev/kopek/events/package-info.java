/**
 * The facts other modules learn from: {@link BusinessEvent} (a state change others must hear about, L9) and
 * {@link MoneyMovement} (money that moved or was reserved, for the ledger). A business event is written through
 * {@link EventStatements}, the one way, inside the transaction (or the statement) that commits the change; a money
 * movement is published synchronously in that transaction, so the ledger's writes commit or roll back with it.
 */
@org.springframework.modulith.ApplicationModule(
        displayName = "Events",
        type = org.springframework.modulith.ApplicationModule.Type.OPEN)
package dev.kopek.events;
