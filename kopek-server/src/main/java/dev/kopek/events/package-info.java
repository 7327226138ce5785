/**
 * The facts other modules learn from: {@link BusinessEvent} (a state change others must hear about, L9) and
 * {@link MoneyMovement} (money that moved or was reserved, for the ledger). A business event is written through
 * {@link EventStatements}, the one way, inside the transaction (or the statement) that commits the change. A money
 * movement is posted by the ledger in that same transaction, so the ledger's writes commit or roll back with it: as
 * a part of the statement that records the movement (captures, holds, releases, refund outcomes), or, for the few a
 * statement does not record (a refund's reservation on the transactional path, a chargeback and its reversal),
 * published synchronously to the ledger's listener.
 */
@org.springframework.modulith.ApplicationModule(
        displayName = "Events",
        type = org.springframework.modulith.ApplicationModule.Type.OPEN)
package dev.kopek.events;
