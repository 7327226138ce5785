package dev.kopek.support;

import java.util.Map;

/**
 * The unknown-outcome figures and Needs attention's list as they were read before they started from the unfinished
 * keys: every payment and operation read, by status. What the statements that replaced them must answer, on any data
 * where every undecided attempt has its key (UnknownOutcomesPlanTest, UnknownOutcomesFromOpenKeysTest).
 */
public final class ScannedOutcomes {

    /** Each kind's unknown outcomes: how many ({@code n}) and the oldest change ({@code oldest}). */
    public static final Map<String, String> UNKNOWN_OLDEST = Map.of(
            "payment",
            "SELECT count(*) AS n, min(updated_at) AS oldest FROM payments WHERE status = 'UNKNOWN'",
            "capture",
            "SELECT count(*) AS n, min(updated_at) AS oldest FROM payment_operations"
                    + " WHERE kind = 'capture' AND status = 'UNKNOWN'",
            "void",
            "SELECT count(*) AS n, min(updated_at) AS oldest FROM payment_operations"
                    + " WHERE kind = 'void' AND status = 'UNKNOWN'",
            "refund",
            "SELECT count(*) AS n, min(updated_at) AS oldest FROM payment_operations"
                    + " WHERE kind = 'refund' AND status = 'UNKNOWN'");

    /** Payments and operations pending or unknown, oldest first, at most {@code :limit}. */
    public static final String IN_FLIGHT = """
            SELECT * FROM (
                SELECT 'payment' AS kind, p.id AS payment_id, p.id AS subject_id, p.merchant_id, p.reference,
                       p.amount, p.currency, p.status, p.updated_at, p.created_at
                  FROM payments p WHERE p.status IN ('PENDING', 'UNKNOWN')
                UNION ALL
                SELECT o.kind, o.payment_id, o.id, o.merchant_id, p.reference, o.amount, p.currency, o.status,
                       o.updated_at, o.created_at
                  FROM payment_operations o JOIN payments p ON p.id = o.payment_id
                 WHERE o.status IN ('PENDING', 'UNKNOWN')
            ) stuck ORDER BY created_at LIMIT :limit
            """;

    private ScannedOutcomes() {}
}
