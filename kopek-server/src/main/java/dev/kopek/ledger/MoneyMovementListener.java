package dev.kopek.ledger;

import dev.kopek.events.MoneyMovement;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Posts every money movement in the transaction that records it, synchronously: the movement and its journal
 * transaction commit together or not at all. A failure to post rolls the business change back — money the ledger
 * cannot account for is not recorded as moved.
 */
@Component
class MoneyMovementListener {

    private final Ledger ledger;

    MoneyMovementListener(Ledger ledger) {
        this.ledger = ledger;
    }

    @EventListener
    void on(MoneyMovement movement) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("a money movement must be published inside the transaction that "
                    + "records it; " + movement.kind() + " of " + movement.sourceId() + " was published outside one");
        }
        ledger.post(movement);
    }
}
