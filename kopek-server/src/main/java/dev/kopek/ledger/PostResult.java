package dev.kopek.ledger;

/** What posting a movement did. Each is a normal outcome; an inconsistent movement throws instead. */
public sealed interface PostResult {

    /** A new journal transaction. */
    record Posted(LedgerTransaction transaction) implements PostResult {}

    /** The movement's source was posted before: nothing was written (a replay or a reconciled outcome). */
    record AlreadyPosted(LedgerTransaction existing) implements PostResult {}
}
