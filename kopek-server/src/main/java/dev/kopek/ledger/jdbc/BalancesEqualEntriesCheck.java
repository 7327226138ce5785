package dev.kopek.ledger.jdbc;

import dev.kopek.platform.InvariantCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Balances equal their entries, every account's (the platform accounts' too), at a cost per slice bounded by the
 * slice whatever the length of the journal or the size of the biggest merchant (issue 26; V210). Summing an
 * account's entries whole, as the hourly drift check does, costs what its history holds, and the entries have no
 * index by account, on purpose (V10). So a pass sums them the way the projector does, walking the journal in order:
 *
 * <ol>
 *   <li><b>targets</b>: a slice of accounts with their projected totals and the projection's mark, in one snapshot
 *       (the projector moves the totals and its mark in one transaction, so a snapshot sees them agree: the totals
 *       are the entries of every journal transaction below the mark, and no transaction below it can still commit);
 *   <li><b>walk</b>: a slice of journal transactions in (tx_xid, id) order, below the highest mark of the targets
 *       and below the mark the slice's own snapshot sees (a replica that lags behind walks no further than it has
 *       replayed); each entry counts for its account when its transaction is below that account's own mark;
 *   <li><b>verdict</b>: a slice of accounts, the sums against the targets.
 * </ol>
 *
 * <p>The sums live in {@code ledger_audit_sums}, written on the primary in the transaction that moves the cursor
 * ({@link Slice#onPrimary()}); the slices' reads (targets, journal) may run on a replica and never read the sums,
 * which a lagging replica could show older than the cursor. Each pass starts from zero, so a tampered entry far
 * behind the walk is found by the next pass, and a database of any age needs no base. The cursor's position names
 * the phase, the targets' lowest and highest marks and the last row taken.
 */
@Component
class BalancesEqualEntriesCheck implements InvariantCheck {

    private static final String NO_ID = "00000000-0000-0000-0000-000000000000";

    private final JdbcClient jdbc;

    BalancesEqualEntriesCheck(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String name() {
        return "balances_equal_entries";
    }

    @Override
    public String law() {
        return "L8: every account's balance is the sum of its entries";
    }

    @Override
    public long total() {
        return 2 * InvariantCheck.rowsOf(jdbc, "ledger_accounts") + InvariantCheck.rowsOf(jdbc, "ledger_transactions");
    }

    /** Where a pass stands: its phase, the lowest and highest mark of its targets, the last row taken. */
    record Position(String phase, long lowMark, long highMark, long key, String id) {

        static final String TARGETS = "targets";
        static final String WALK = "walk";
        static final String VERDICT = "verdict";

        static Position start() {
            return new Position(TARGETS, Long.MAX_VALUE, 0, 0, NO_ID);
        }

        /** The cursor's text; anything else (a cursor of an older version of this check) starts a pass. */
        static Position parse(String text) {
            String[] parts = text == null ? new String[0] : text.split(" ");
            if (parts.length != 5 || !List.of(TARGETS, WALK, VERDICT).contains(parts[0])) {
                return start();
            }
            try {
                return new Position(
                        parts[0],
                        Long.parseLong(parts[1]),
                        Long.parseLong(parts[2]),
                        Long.parseLong(parts[3]),
                        UUID.fromString(parts[4]).toString());
            } catch (IllegalArgumentException e) {
                return start();
            }
        }

        String text() {
            return String.join(" ", phase, Long.toString(lowMark), Long.toString(highMark), Long.toString(key), id);
        }
    }

    @Override
    public Slice check(String after, int limit) {
        Position at = Position.parse(after);
        return switch (at.phase()) {
            case Position.TARGETS -> targets(at, limit);
            case Position.WALK -> walk(at, limit);
            default -> verdict(at, limit);
        };
    }

    private record Target(long account, long mark, long debits, long credits) {}

    /** Phase 1: the next accounts' projected totals at the mark of this snapshot; their sums start at zero. */
    private Slice targets(Position at, int limit) {
        List<Target> targets = jdbc.sql("""
                WITH slice AS (SELECT id FROM ledger_accounts WHERE id > :after ORDER BY id LIMIT :limit)
                SELECT s.id, m.projected_below,
                       COALESCE(sum(b.debit_minor), 0)::bigint AS debits,
                       COALESCE(sum(b.credit_minor), 0)::bigint AS credits
                  FROM ledger_projection m CROSS JOIN slice s
                  LEFT JOIN ledger_balances b ON b.account_id = s.id
                 GROUP BY s.id, m.projected_below
                 ORDER BY s.id
                """)
                .param("after", at.key())
                .param("limit", limit)
                .query((rs, n) -> new Target(
                        rs.getLong("id"), rs.getLong("projected_below"), rs.getLong("debits"), rs.getLong("credits")))
                .list();
        long low = targets.stream().mapToLong(Target::mark).reduce(at.lowMark(), Math::min);
        long high = targets.stream().mapToLong(Target::mark).reduce(at.highMark(), Math::max);
        Position next;
        if (targets.size() == limit) {
            next = new Position(Position.TARGETS, low, high, targets.getLast().account(), NO_ID);
        } else if (high > 0) {
            next = new Position(Position.WALK, low, high, -1, NO_ID);
        } else {
            return new Slice(0, null, List.of());
        }
        String last = next.text();
        return new Slice(targets.size(), last, List.of(), true, () -> {
            writeTargets(targets);
            return new Slice(targets.size(), last, List.of(), true, null);
        });
    }

    private void writeTargets(List<Target> targets) {
        if (targets.isEmpty()) {
            return;
        }
        jdbc.sql("""
                INSERT INTO ledger_audit_sums AS s (account_id, mark, target_debits, target_credits, debits, credits)
                SELECT t.account_id, t.mark, t.debits, t.credits, 0, 0
                  FROM unnest(CAST(:accounts AS bigint[]), CAST(:marks AS bigint[]), CAST(:debits AS bigint[]),
                              CAST(:credits AS bigint[])) AS t (account_id, mark, debits, credits)
                ON CONFLICT (account_id) DO UPDATE
                   SET mark = EXCLUDED.mark, target_debits = EXCLUDED.target_debits,
                       target_credits = EXCLUDED.target_credits, debits = 0, credits = 0
                """)
                .param("accounts", targets.stream().map(Target::account).toArray(Long[]::new))
                .param("marks", targets.stream().map(Target::mark).toArray(Long[]::new))
                .param("debits", targets.stream().map(Target::debits).toArray(Long[]::new))
                .param("credits", targets.stream().map(Target::credits).toArray(Long[]::new))
                .update();
    }

    private record Step(int rows, long lastXid, UUID lastId, boolean complete) {}

    /** An account's entries of the slice, per journal transaction at or above the lowest mark (0: below it). */
    private record Moved(long account, long xid, long debits, long credits) {}

    /** Phase 2: the next journal transactions, added to their accounts' sums below each account's mark. */
    private Slice walk(Position at, int limit) {
        // The bound is a scalar subquery, so an index condition: the scan stops at it rather than filtering the
        // journal written since the targets were read.
        Step step = jdbc.sql("""
                WITH bound AS (SELECT LEAST(projected_below, :high) AS below FROM ledger_projection),
                slice AS (
                    SELECT t.tx_xid, t.id FROM ledger_transactions t
                     WHERE (t.tx_xid, t.id) > (:xid, CAST(:id AS uuid))
                       AND t.tx_xid < (SELECT below FROM bound)
                     ORDER BY t.tx_xid, t.id LIMIT :limit
                )
                SELECT (SELECT count(*)::int FROM slice) AS rows,
                       last.tx_xid, last.id, (SELECT below FROM bound) = :high AS complete
                  FROM (SELECT 1) one
                  LEFT JOIN LATERAL (SELECT * FROM slice ORDER BY tx_xid DESC, id DESC LIMIT 1) last ON TRUE
                """)
                .param("high", at.highMark())
                .param("xid", at.key())
                .param("id", at.id())
                .param("limit", limit)
                .query((rs, n) -> new Step(
                        rs.getInt("rows"),
                        rs.getLong("tx_xid"),
                        rs.getObject("id", UUID.class),
                        rs.getBoolean("complete")))
                .single();
        if (step.rows() == 0) {
            Position next = step.complete()
                    ? new Position(Position.VERDICT, at.lowMark(), at.highMark(), 0, NO_ID)
                    : at; // the snapshot's mark is behind the targets' (a lagging replica): the next slice goes on
            return new Slice(0, next.text(), List.of(), true, null);
        }
        // The slice's transactions in index order, and the entries of each through their index, one lookup each:
        // OFFSET 0 keeps the planner from joining the journal's entries whole (a hash join over every entry), which
        // it chose when it misjudged the size of the slice.
        List<Moved> moved = jdbc.sql("""
                WITH slice AS MATERIALIZED (
                    SELECT t.tx_xid, t.id FROM ledger_transactions t
                     WHERE (t.tx_xid, t.id) > (:xid, CAST(:id AS uuid))
                       AND (t.tx_xid, t.id) <= (:lastXid, CAST(:lastId AS uuid))
                     ORDER BY t.tx_xid, t.id LIMIT :rows
                )
                SELECT e.account_id, CASE WHEN s.tx_xid < :low THEN 0 ELSE s.tx_xid END AS xid,
                       COALESCE(sum(e.amount_minor) FILTER (WHERE e.side = 'debit'), 0)::bigint AS debits,
                       COALESCE(sum(e.amount_minor) FILTER (WHERE e.side = 'credit'), 0)::bigint AS credits
                  FROM slice s
                 CROSS JOIN LATERAL (SELECT n.account_id, n.side, n.amount_minor FROM ledger_entries n
                                      WHERE n.transaction_id = s.id OFFSET 0) e
                 GROUP BY 1, 2
                """)
                .param("low", at.lowMark())
                .param("xid", at.key())
                .param("id", at.id())
                .param("lastXid", step.lastXid())
                .param("lastId", step.lastId())
                .param("rows", step.rows())
                .query((rs, n) -> new Moved(
                        rs.getLong("account_id"), rs.getLong("xid"), rs.getLong("debits"), rs.getLong("credits")))
                .list();
        String last = new Position(
                        Position.WALK,
                        at.lowMark(),
                        at.highMark(),
                        step.lastXid(),
                        step.lastId().toString())
                .text();
        return new Slice(step.rows(), last, List.of(), true, () -> {
            addToSums(moved);
            return new Slice(step.rows(), last, List.of(), true, null);
        });
    }

    private void addToSums(List<Moved> moved) {
        if (moved.isEmpty()) {
            return;
        }
        jdbc.sql("""
                UPDATE ledger_audit_sums s
                   SET debits = s.debits + d.debits, credits = s.credits + d.credits
                  FROM (SELECT m.account_id, sum(m.debits)::bigint AS debits, sum(m.credits)::bigint AS credits
                          FROM unnest(CAST(:accounts AS bigint[]), CAST(:xids AS bigint[]), CAST(:debits AS bigint[]),
                                      CAST(:credits AS bigint[])) AS m (account_id, xid, debits, credits)
                          JOIN ledger_audit_sums a ON a.account_id = m.account_id AND m.xid < a.mark
                         GROUP BY m.account_id) d
                 WHERE s.account_id = d.account_id
                """)
                .param("accounts", moved.stream().map(Moved::account).toArray(Long[]::new))
                .param("xids", moved.stream().map(Moved::xid).toArray(Long[]::new))
                .param("debits", moved.stream().map(Moved::debits).toArray(Long[]::new))
                .param("credits", moved.stream().map(Moved::credits).toArray(Long[]::new))
                .update();
    }

    private record Verdict(
            long account,
            UUID merchant,
            String type,
            String currency,
            long mark,
            long debits,
            long credits,
            long entryDebits,
            long entryCredits) {}

    /** Phase 3, on the primary where the sums are: the next accounts' sums against their targets. */
    private Slice verdict(Position at, int limit) {
        return new Slice(0, at.text(), List.of(), true, () -> {
            List<Verdict> verdicts = jdbc.sql("""
                    SELECT s.account_id, a.merchant_id, a.type, a.currency, s.mark,
                           s.target_debits, s.target_credits, s.debits, s.credits
                      FROM ledger_audit_sums s JOIN ledger_accounts a ON a.id = s.account_id
                     WHERE s.account_id > :after
                     ORDER BY s.account_id LIMIT :limit
                    """)
                    .param("after", at.key())
                    .param("limit", limit)
                    .query((rs, n) -> new Verdict(
                            rs.getLong("account_id"),
                            rs.getObject("merchant_id", UUID.class),
                            rs.getString("type"),
                            rs.getString("currency"),
                            rs.getLong("mark"),
                            rs.getLong("target_debits"),
                            rs.getLong("target_credits"),
                            rs.getLong("debits"),
                            rs.getLong("credits")))
                    .list();
            List<Finding> findings = new ArrayList<>();
            for (Verdict v : verdicts) {
                if (v.debits() != v.entryDebits() || v.credits() != v.entryCredits()) {
                    findings.add(new Finding(
                            "account " + v.account(),
                            null,
                            v.merchant(),
                            null,
                            v.type() + " account " + v.account() + " in " + v.currency() + " projects debits/credits "
                                    + v.debits() + "/" + v.credits() + " at mark " + v.mark()
                                    + " but its entries below the mark sum to " + v.entryDebits() + "/"
                                    + v.entryCredits(),
                            Excuse.NONE));
                }
            }
            String last = verdicts.isEmpty()
                    ? at.text()
                    : new Position(
                                    Position.VERDICT,
                                    at.lowMark(),
                                    at.highMark(),
                                    verdicts.getLast().account(),
                                    NO_ID)
                            .text();
            return new Slice(verdicts.size(), last, findings);
        });
    }
}
