/**
 * The facts other modules learn from: {@link BusinessEvent} (a state change others must hear about, L9) and
 * {@link MoneyMovement} (money that moved or was reserved, for the ledger). Both are published synchronously
 * inside the transaction that commits the change, so a listener's writes commit or roll back with it.
 */
@org.springframework.modulith.ApplicationModule(
        displayName = "Events",
        type = org.springframework.modulith.ApplicationModule.Type.OPEN)
package dev.kopek.events;
