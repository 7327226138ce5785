package dev.kopek.ledger.jdbc;

import dev.kopek.platform.ReadReplica;
import org.springframework.stereotype.Component;

/**
 * The journal and the balance projection as the read replica holds them (docs/read-replicas.md), for the reads that
 * tolerate a few seconds of lag and on which nothing is decided: a merchant's history page and balances, the
 * platform's balances. Without a replica they are the primary's. Posting, reversals, fences and reads by id (a
 * caller may read what it has just made) keep using the primary's stores.
 */
@Component
public class LedgerHistoryStores {

    private final JournalStore journal;
    private final BalanceStore balances;

    LedgerHistoryStores(ReadReplica replica) {
        this.journal = new JournalStore(replica.jdbc());
        this.balances = new BalanceStore(replica.jdbc());
    }

    public JournalStore journal() {
        return journal;
    }

    public BalanceStore balances() {
        return balances;
    }
}
