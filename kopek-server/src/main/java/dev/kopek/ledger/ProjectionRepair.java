package dev.kopek.ledger;

import java.util.List;

/**
 * What the drift check's repair added to the balance projection, per account (docs/runbooks/ledger-drift.md): the
 * entries below the projection's mark that the balances lacked. Empty when the balances held them all.
 */
public record ProjectionRepair(List<Added> accounts) {

    public ProjectionRepair {
        accounts = List.copyOf(accounts);
    }

    /** What one account's balance gained. */
    public record Added(long accountId, long addedDebitMinor, long addedCreditMinor) {}

    /**
     * Why the projection was not repaired, nothing changed: a balance exceeds its entries (a row written outside the
     * projector, which adding cannot mend), or a transaction older than the projection's mark stayed open.
     */
    public static final class Refused extends RuntimeException {
        public Refused(String reason) {
            super(reason, null, false, false);
        }
    }
}
