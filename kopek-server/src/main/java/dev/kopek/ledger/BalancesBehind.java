package dev.kopek.ledger;

/**
 * A balance cannot be read exactly now: more journal transactions wait for the balance projector than one read may
 * sum ({@code kopek.ledger.max-unprojected-read}). Something holds the projector back, most often a session idle in a
 * transaction (docs/operating-postgresql.md); {@code kopek_ledger_projection_lag_seconds} says for how long. Nothing is
 * wrong with the money: the read is refused rather than made slower for every caller.
 */
public final class BalancesBehind extends RuntimeException {

    public BalancesBehind(long limit) {
        super("more than " + limit + " journal transactions wait for the balance projector", null, false, false);
    }
}
