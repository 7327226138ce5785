package dev.kopek.ledger.jdbc;

import dev.kopek.ledger.LedgerEntry;
import dev.kopek.ledger.LedgerTransaction;
import dev.kopek.ledger.domain.AccountType;
import dev.kopek.ledger.domain.PostingRules;
import dev.kopek.ledger.domain.Side;
import dev.kopek.money.MerchantId;
import dev.kopek.platform.Db;
import dev.kopek.platform.SqlPart;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The journal: writes a journal transaction with its entries in one statement, or as a part of the caller's statement
 * (the database checks the balance at commit; the balances are projected after it, V162), and reads it back.
 */
@Repository
public class JournalStore {

    private static final String HEADER_COLUMNS = """
            t.id, t.merchant_id, t.payment_id, t.source_id, t.kind, t.amount_minor, t.currency, t.reverses, t.reason,
            t.occurred_at, t.recorded_at""";

    private final JdbcClient jdbc;

    JournalStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A resolved entry to write. */
    public record NewLine(long accountId, Side side, long amountMinor) {}

    /**
     * Inserts the transaction and its entries unless a transaction for the same {@code (source_id, kind)} exists.
     *
     * @return whether it was inserted; {@code false} means the posting already exists and nothing was written
     */
    public boolean insert(LedgerTransaction tx, List<NewLine> lines) {
        // One statement: the header's ON CONFLICT decides whether any entry is written. No balance row is touched
        // (the projector adds committed entries to the balances, V162), so the entries need no lock order.
        SqlPart header = header(tx, lines, "VALUES (" + HEADER_VALUES + ")");
        Map<String, Object> params = new HashMap<>(header.params());
        params.putAll(linesParams(lines));
        int written = jdbc.sql("WITH " + header.sql() + "\n" + entries(lines))
                .params(params)
                .update();
        if (written != 0 && written != lines.size()) {
            throw new IllegalStateException("wrote " + written + " of " + lines.size() + " entries of " + tx.id());
        }
        return written == lines.size();
    }

    /**
     * {@link #insert} as common table expressions of another module's statement ({@code ledger_header},
     * {@code ledger_entries}), written once when the CTE {@code source} has a row: for a change made by one statement
     * in autocommit, whose posting must commit with it. A posting that exists already writes nothing, as in
     * {@link #insert}.
     */
    public SqlPart insertPart(LedgerTransaction tx, List<NewLine> lines, String source) {
        SqlPart header = header(tx, lines, "SELECT " + HEADER_VALUES + " FROM " + source);
        Map<String, Object> params = new HashMap<>(header.params());
        params.putAll(linesParams(lines));
        return new SqlPart(header.sql() + ",\nledger_entries AS (" + entries(lines) + ")", params);
    }

    /** A line whose amount the statement computes: its account, its side, and its amount as an SQL expression. */
    public record ComputedLine(long accountId, Side side, String amountSql) {}

    /**
     * {@link #insertPart} for a posting whose amounts the statement computes (a capture's fee, the open hold it
     * closes): each line's amount is an SQL expression over the one row of the CTE {@code inputs}, a line that comes to
     * zero is left out, and nothing is posted when fewer than two lines remain (a release of a closed hold). The CTEs
     * are {@code ledger_lines<suffix>}, {@code ledger_header<suffix>} and {@code ledger_entries<suffix>}, so that one
     * statement may post several movements. A negative amount is a bug and fails the statement on the entries' CHECK.
     */
    public SqlPart computedPart(
            LedgerTransaction tx, List<ComputedLine> lines, String inputs, String source, String suffix) {
        return computedPart(tx, lines, inputs, source, suffix, "TRUE");
    }

    /**
     * {@link #computedPart}, posted only where {@code guard} (SQL over the transaction's parameters, prefixed
     * {@code lg<suffix>_}) holds: the posting of an outcome against what it settles, checked in the statement.
     */
    public SqlPart computedPart(
            LedgerTransaction tx, List<ComputedLine> lines, String inputs, String source, String suffix, String guard) {
        String p = "lg" + suffix + "_";
        Map<String, Object> params = headerParams(p, tx, 0);
        params.remove(p + "entryCount");
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            ComputedLine line = lines.get(i);
            values.append(i == 0 ? "" : ", ")
                    .append("(%d, CAST(:%saccount%d AS bigint), CAST(:%sside%d AS text), CAST(%s AS bigint))"
                            .formatted(i + 1, p, i, p, i, line.amountSql()));
            params.put(p + "account" + i, line.accountId());
            params.put(p + "side" + i, line.side().code());
        }
        String count = "(SELECT CAST(count(*) AS smallint) FROM ledger_lines" + suffix + ")";
        String headerValues =
                HEADER_VALUES.replace(":lg_", ":" + p).replace("CAST(:" + p + "entryCount AS integer)", count);
        return new SqlPart("""
                ledger_lines%1$s AS (
                    SELECT CAST(row_number() OVER (ORDER BY l.ord) AS integer) AS line, l.account_id, l.side,
                           l.amount_minor
                      FROM %2$s AS i CROSS JOIN LATERAL (VALUES %3$s) AS l (ord, account_id, side, amount_minor)
                     WHERE l.amount_minor <> 0
                ),
                ledger_header%1$s AS (
                    INSERT INTO ledger_transactions (id, merchant_id, payment_id, source_id, kind, amount_minor,
                                                     currency, reverses, reason, entry_count, occurred_at,
                                                     recorded_at)
                    SELECT %4$s FROM %5$s WHERE %6$s >= 2 AND %8$s
                    ON CONFLICT (source_id, kind) DO NOTHING
                    RETURNING id, entry_count
                ),
                ledger_entries%1$s AS (
                    INSERT INTO ledger_entries (transaction_id, entry_count, line, account_id, side, amount_minor,
                                                currency)
                    SELECT h.id, h.entry_count, l.line, l.account_id, l.side, l.amount_minor, CAST(:%7$scurrency AS text)
                      FROM ledger_header%1$s AS h, ledger_lines%1$s AS l
                )""".formatted(suffix, inputs, values, headerValues, source, count, p, guard), params);
    }

    /** A line of a posting of a batch: its account, its side, and the term of the posting table its amount is. */
    public record TermLine(long accountId, Side side, PostingRules.Term term) {}

    /**
     * {@link #computedPart} for many postings in one statement (a batch): {@code headers} and, at the same index,
     * their {@code lines}, each line's amount the SQL expression {@code terms} gives for its term, over the columns
     * {@code i.amount_minor}, {@code i.bps} and {@code i.fixed_minor} (the posting's amount and its merchant's fee
     * rule in its currency, read by the statement). A posting is written once when the CTE {@code source} has a row
     * whose {@code id} is its source id; a line that comes to zero is left out, and nothing is posted when fewer
     * than two lines remain. The CTEs are named {@code ledger_each*}.
     */
    public static SqlPart computedEachPart(
            List<LedgerTransaction> headers,
            List<List<TermLine>> lines,
            Map<PostingRules.Term, String> terms,
            String source) {
        return computedEachPart(headers, lines, terms, source, null);
    }

    /**
     * {@link #computedEachPart} for postings that close part of their payment's authorization hold: the statement
     * also computes, per posting, how much of that hold is open ({@code i.open_hold}, as {@link #inputsPart} does,
     * null when it never had one), and {@code i.prior} is {@code priors} at its index: what an earlier posting of the
     * same statement for the same payment may close first (a capture before the release of the rest). The caller
     * must have locked each payment's row in an earlier statement of its transaction.
     */
    public static SqlPart heldEachPart(
            List<LedgerTransaction> headers,
            List<List<TermLine>> lines,
            Map<PostingRules.Term, String> terms,
            String source,
            long[] priors) {
        return computedEachPart(headers, lines, terms, source, priors);
    }

    /** The CTE of {@link #outcomeEachPart} that yields a row for each posting it wrote. */
    public static final String OUTCOME_EACH_WRITTEN = "ledger_outcome_header";

    /**
     * {@link #computedEachPart} for the outcomes of many refunds in one statement, beside the other postings of the
     * statement (its CTEs are named {@code ledger_outcome*}), each posted only against its opening, as
     * {@link #openedGuard} checks it for one: a transaction of {@code opening} with the same source, merchant,
     * payment, currency and amount.
     */
    public static SqlPart outcomeEachPart(
            List<LedgerTransaction> headers,
            List<List<TermLine>> lines,
            Map<PostingRules.Term, String> terms,
            String source,
            String opening) {
        SqlPart part = computedEachPart(headers, lines, terms, source, null, """
                EXISTS (SELECT 1 FROM ledger_transactions o
                         WHERE o.source_id = r.source_id AND o.kind = '%s' AND o.merchant_id = r.merchant_id
                           AND o.payment_id = r.payment_id AND o.currency = r.currency
                           AND o.amount_minor = r.amount_minor)""".formatted(opening));
        Map<String, Object> params = new HashMap<>();
        part.params().forEach((name, value) -> params.put("lo" + name, value));
        return new SqlPart(
                part.sql()
                        .replace("ledger_each", "ledger_outcome")
                        .replace(":le_", ":lole_")
                        .replace(":lel_", ":lolel_"),
                params);
    }

    private static SqlPart computedEachPart(
            List<LedgerTransaction> headers,
            List<List<TermLine>> lines,
            Map<PostingRules.Term, String> terms,
            String source,
            long[] priors) {
        return computedEachPart(headers, lines, terms, source, priors, "TRUE");
    }

    private static SqlPart computedEachPart(
            List<LedgerTransaction> headers,
            List<List<TermLine>> lines,
            Map<PostingRules.Term, String> terms,
            String source,
            long[] priors,
            String guard) {
        int n = headers.size();
        UUID[] ids = new UUID[n];
        UUID[] merchants = new UUID[n];
        UUID[] payments = new UUID[n];
        UUID[] sources = new UUID[n];
        String[] kinds = new String[n];
        long[] amounts = new long[n];
        String[] currencies = new String[n];
        String[] occurred = new String[n];
        String[] recorded = new String[n];
        List<UUID> lineTx = new ArrayList<>();
        List<Integer> lineOrd = new ArrayList<>();
        List<Long> lineAccount = new ArrayList<>();
        List<String> lineSide = new ArrayList<>();
        List<String> lineTerm = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            LedgerTransaction tx = headers.get(i);
            ids[i] = tx.id();
            merchants[i] = tx.merchant().value();
            payments[i] = tx.paymentId();
            sources[i] = tx.sourceId();
            kinds[i] = tx.kind();
            amounts[i] = tx.amountMinor();
            currencies[i] = tx.currency();
            occurred[i] = Db.micros(tx.occurredAt()).toString();
            recorded[i] = Db.micros(tx.recordedAt()).toString();
            for (int l = 0; l < lines.get(i).size(); l++) {
                TermLine line = lines.get(i).get(l);
                lineTx.add(tx.id());
                lineOrd.add(l + 1);
                lineAccount.add(line.accountId());
                lineSide.add(line.side().code());
                lineTerm.add(line.term().name());
            }
        }
        Map<String, Object> params = new HashMap<>();
        params.put("le_id", ids);
        params.put("le_merchant", merchants);
        params.put("le_payment", payments);
        params.put("le_source", sources);
        params.put("le_kind", kinds);
        params.put("le_amount", amounts);
        params.put("le_currency", currencies);
        params.put("le_occurredAt", occurred);
        params.put("le_recordedAt", recorded);
        params.put("lel_tx", lineTx.toArray(UUID[]::new));
        params.put("lel_ord", lineOrd.stream().mapToInt(Integer::intValue).toArray());
        params.put(
                "lel_account", lineAccount.stream().mapToLong(Long::longValue).toArray());
        params.put("lel_side", lineSide.toArray(String[]::new));
        params.put("lel_term", lineTerm.toArray(String[]::new));
        params.put("le_prior", priors == null ? new long[n] : priors);
        StringBuilder amount = new StringBuilder("CASE u.term");
        for (PostingRules.Term term : PostingRules.Term.values()) {
            amount.append(" WHEN '%s' THEN %s".formatted(term.name(), terms.get(term)));
        }
        amount.append(" END");
        return new SqlPart(
                COMPUTED_EACH.formatted(source, amount, priors == null ? "NULL" : OPEN_HOLD_EACH, guard), params);
    }

    /** {@link #inputsPart}'s open hold, for the payment of each row {@code r} of a batch's postings. */
    private static final String OPEN_HOLD_EACH = """
            (SELECT sum(CASE e.side WHEN 'credit' THEN e.amount_minor ELSE -e.amount_minor END)
               FROM ledger_transactions t
               JOIN ledger_entries e ON e.transaction_id = t.id
               JOIN ledger_accounts a ON a.id = e.account_id
              WHERE t.payment_id = r.payment_id AND t.merchant_id = r.merchant_id AND a.type = 'HOLDS_PAYABLE')""";

    private static final String COMPUTED_EACH = """
            ledger_each AS (
                SELECT r.*, CAST(COALESCE(f.bps, 0) AS bigint) AS bps, COALESCE(f.fixed_minor, 0) AS fixed_minor,
                       CAST(%3$s AS bigint) AS open_hold
                  FROM unnest(CAST(:le_id AS uuid[]), CAST(:le_merchant AS uuid[]), CAST(:le_payment AS uuid[]),
                              CAST(:le_source AS uuid[]), CAST(:le_kind AS text[]), CAST(:le_amount AS bigint[]),
                              CAST(:le_currency AS text[]), CAST(:le_occurredAt AS timestamptz[]),
                              CAST(:le_recordedAt AS timestamptz[]), CAST(:le_prior AS bigint[]))
                       AS r(id, merchant_id, payment_id, source_id, kind, amount_minor, currency, occurred_at,
                            recorded_at, prior)
                  LEFT JOIN ledger_merchant_fees f ON f.merchant_id = r.merchant_id AND f.currency = r.currency
                 WHERE r.source_id IN (SELECT id FROM %1$s) AND %4$s
            ),
            ledger_each_lines AS (
                SELECT l.tx, CAST(row_number() OVER (PARTITION BY l.tx ORDER BY l.ord) AS integer) AS line,
                       l.account_id, l.side, l.amount_minor
                  FROM (SELECT u.tx, u.ord, u.account_id, u.side, CAST(%2$s AS bigint) AS amount_minor
                          FROM unnest(CAST(:lel_tx AS uuid[]), CAST(:lel_ord AS integer[]),
                                      CAST(:lel_account AS bigint[]), CAST(:lel_side AS text[]),
                                      CAST(:lel_term AS text[])) AS u(tx, ord, account_id, side, term)
                          JOIN ledger_each i ON i.id = u.tx) AS l
                 WHERE l.amount_minor <> 0
            ),
            ledger_each_header AS (
                INSERT INTO ledger_transactions (id, merchant_id, payment_id, source_id, kind, amount_minor, currency,
                                                 reverses, reason, entry_count, occurred_at, recorded_at)
                SELECT i.id, i.merchant_id, i.payment_id, i.source_id, i.kind, i.amount_minor, i.currency, NULL, NULL,
                       c.entry_count, i.occurred_at, i.recorded_at
                  FROM ledger_each i
                  JOIN (SELECT tx, CAST(count(*) AS smallint) AS entry_count FROM ledger_each_lines GROUP BY tx) c
                    ON c.tx = i.id
                 WHERE c.entry_count >= 2
                ON CONFLICT (source_id, kind) DO NOTHING
                RETURNING id, entry_count, currency
            ),
            ledger_each_entries AS (
                INSERT INTO ledger_entries (transaction_id, entry_count, line, account_id, side, amount_minor,
                                            currency)
                SELECT h.id, h.entry_count, l.line, l.account_id, l.side, l.amount_minor, h.currency
                  FROM ledger_each_header h JOIN ledger_each_lines l ON l.tx = h.id
            )""";

    private static final String HEADER_VALUES = """
            CAST(:lg_id AS uuid), CAST(:lg_merchant AS uuid), CAST(:lg_payment AS uuid), CAST(:lg_source AS uuid),
            CAST(:lg_kind AS text), CAST(:lg_amount AS bigint), CAST(:lg_currency AS text), CAST(:lg_reverses AS uuid),
            CAST(:lg_reason AS text), CAST(:lg_entryCount AS integer), CAST(:lg_occurredAt AS timestamptz),
            CAST(:lg_recordedAt AS timestamptz)""";

    /** The CTE {@code ledger_header}: the transaction's header, one row (its id) unless its source was posted. */
    private static SqlPart header(LedgerTransaction tx, List<NewLine> lines, String values) {
        return new SqlPart("""
                ledger_header AS (
                    INSERT INTO ledger_transactions (id, merchant_id, payment_id, source_id, kind, amount_minor,
                                                     currency, reverses, reason, entry_count, occurred_at,
                                                     recorded_at)
                    %s
                    ON CONFLICT (source_id, kind) DO NOTHING
                    RETURNING id
                )""".formatted(values), headerParams("lg_", tx, lines.size()));
    }

    private static Map<String, Object> headerParams(String p, LedgerTransaction tx, int entryCount) {
        Map<String, Object> params = new HashMap<>();
        params.put(p + "id", tx.id());
        params.put(p + "merchant", tx.merchant() == null ? null : tx.merchant().value());
        params.put(p + "payment", tx.paymentId());
        params.put(p + "source", tx.sourceId());
        params.put(p + "kind", tx.kind());
        params.put(p + "amount", tx.amountMinor());
        params.put(p + "currency", tx.currency());
        params.put(p + "reverses", tx.reverses());
        params.put(p + "reason", tx.reason());
        params.put(p + "entryCount", entryCount);
        params.put(p + "occurredAt", Db.at(tx.occurredAt()));
        params.put(p + "recordedAt", Db.at(tx.recordedAt()));
        return params;
    }

    /** The entries' INSERT, from the CTE {@code ledger_header}. */
    private static String entries(List<NewLine> lines) {
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            values.append(i == 0 ? "" : ", ")
                    .append(
                            "(%d, CAST(:lg_account%d AS bigint), CAST(:lg_side%d AS text), CAST(:lg_amount%d AS bigint))"
                                    .formatted(i + 1, i, i, i));
        }
        return """
                INSERT INTO ledger_entries (transaction_id, entry_count, line, account_id, side, amount_minor, currency)
                SELECT ledger_header.id, CAST(:lg_entryCount AS integer), lines.line, lines.account_id, lines.side,
                       lines.amount_minor, CAST(:lg_currency AS text)
                  FROM ledger_header, (VALUES %s) AS lines (line, account_id, side, amount_minor)
                """.formatted(values);
    }

    private static Map<String, Object> linesParams(List<NewLine> lines) {
        Map<String, Object> params = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            params.put("lg_account" + i, lines.get(i).accountId());
            params.put("lg_side" + i, lines.get(i).side().code());
            params.put("lg_amount" + i, lines.get(i).amountMinor());
        }
        return params;
    }

    public Optional<LedgerTransaction> findBySource(UUID sourceId, String kind) {
        return jdbc.sql("SELECT " + HEADER_COLUMNS
                        + " FROM ledger_transactions t WHERE t.source_id = :source AND t.kind = :kind")
                .param("source", sourceId)
                .param("kind", kind)
                .query(JournalStore::header)
                .optional()
                .map(this::withEntries);
    }

    public Optional<LedgerTransaction> find(UUID id) {
        return jdbc.sql("SELECT " + HEADER_COLUMNS + " FROM ledger_transactions t WHERE t.id = :id")
                .param("id", id)
                .query(JournalStore::header)
                .optional()
                .map(this::withEntries);
    }

    /**
     * A guard for {@link #computedPart}: the transaction posted for the same source as the opening {@code kind}, for
     * the same merchant, payment and currency, with the same amount ({@code exact}) or at least the amount.
     */
    public static String openedGuard(String suffix, String kind, boolean exact) {
        String p = ":lg" + suffix + "_";
        return """
                EXISTS (SELECT 1 FROM ledger_transactions o
                         WHERE o.source_id = CAST(%1$ssource AS uuid) AND o.kind = '%2$s'
                           AND o.merchant_id = CAST(%1$smerchant AS uuid) AND o.payment_id = CAST(%1$spayment AS uuid)
                           AND o.currency = CAST(%1$scurrency AS text)
                           AND o.amount_minor %3$s CAST(%1$samount AS bigint))""".formatted(p, kind, exact ? "=" : ">=");
    }

    /**
     * What a posting computed in its statement depends on, as the CTE {@code ledger_inputs} (one row): the merchant's
     * fee rule in the currency ({@code bps}, {@code fixed_minor}, zero without one) and how much of the payment's
     * authorization hold is open ({@code open_hold}, null when it never had one). Read in the statement's snapshot:
     * the caller has locked the payment's row in an earlier statement of its transaction, as every writer of a
     * capture or a release does first, so no hold closed before that lock is missed.
     */
    public static SqlPart inputsPart(MerchantId merchant, UUID paymentId, String currency) {
        return inputs("""
                (SELECT CAST(sum(CASE e.side WHEN 'credit' THEN e.amount_minor ELSE -e.amount_minor END) AS bigint)
                   FROM ledger_transactions t
                   JOIN ledger_entries e ON e.transaction_id = t.id
                   JOIN ledger_accounts a ON a.id = e.account_id
                  WHERE t.payment_id = CAST(:li_payment AS uuid) AND t.merchant_id = CAST(:li_merchant AS uuid)
                    AND a.type = 'HOLDS_PAYABLE')""", merchant, currency, Map.of("li_payment", paymentId));
    }

    /** {@link #inputsPart} for a payment that has no hold: the fee rule, and no open hold (NULL). */
    public static SqlPart feeInputsPart(MerchantId merchant, String currency) {
        return inputs("CAST(NULL AS bigint)", merchant, currency, Map.of());
    }

    /** The CTE {@code ledger_inputs}: the merchant's fee rule for the currency, and {@code openHold} as open_hold. */
    private static SqlPart inputs(String openHold, MerchantId merchant, String currency, Map<String, Object> more) {
        Map<String, Object> params = new HashMap<>(more);
        params.put("li_merchant", merchant.value());
        params.put("li_currency", currency);
        return new SqlPart("""
                ledger_inputs AS (
                    SELECT CAST(COALESCE(f.bps, 0) AS bigint) AS bps, COALESCE(f.fixed_minor, 0) AS fixed_minor,
                           %s AS open_hold
                      FROM (SELECT 1) AS one
                      LEFT JOIN ledger_merchant_fees f
                             ON f.merchant_id = CAST(:li_merchant AS uuid) AND f.currency = :li_currency
                )""".formatted(openHold), params);
    }

    /** Transactions of one merchant in id order after {@code after}, optionally of one payment. */
    public List<LedgerTransaction> page(MerchantId merchant, UUID paymentId, UUID after, int limit) {
        String sql = "SELECT " + HEADER_COLUMNS + " FROM ledger_transactions t WHERE t.merchant_id = :merchant"
                + (paymentId == null ? "" : " AND t.payment_id = :payment")
                + (after == null ? "" : " AND t.id > :after")
                + " ORDER BY t.id LIMIT :limit";
        var statement = jdbc.sql(sql).param("merchant", merchant.value()).param("limit", limit);
        if (paymentId != null) {
            statement = statement.param("payment", paymentId);
        }
        if (after != null) {
            statement = statement.param("after", after);
        }
        return withEntries(statement.query(JournalStore::header).list());
    }

    private LedgerTransaction withEntries(LedgerTransaction header) {
        return withEntries(List.of(header)).getFirst();
    }

    private List<LedgerTransaction> withEntries(List<LedgerTransaction> headers) {
        if (headers.isEmpty()) {
            return headers;
        }
        Map<UUID, List<LedgerEntry>> entries =
                entries(headers.stream().map(LedgerTransaction::id).toList());
        List<LedgerTransaction> complete = new ArrayList<>(headers.size());
        for (LedgerTransaction h : headers) {
            complete.add(new LedgerTransaction(
                    h.id(),
                    h.merchant(),
                    h.paymentId(),
                    h.sourceId(),
                    h.kind(),
                    h.amountMinor(),
                    h.currency(),
                    h.reverses(),
                    h.reason(),
                    h.occurredAt(),
                    h.recordedAt(),
                    entries.getOrDefault(h.id(), List.of())));
        }
        return complete;
    }

    private Map<UUID, List<LedgerEntry>> entries(Collection<UUID> transactionIds) {
        Map<UUID, List<LedgerEntry>> byTransaction = new LinkedHashMap<>();
        jdbc.sql("""
                SELECT e.transaction_id, e.line, e.account_id, a.type, e.side, e.amount_minor, e.currency
                  FROM ledger_entries e
                  JOIN ledger_accounts a ON a.id = e.account_id
                 WHERE e.transaction_id IN (:ids)
                 ORDER BY e.transaction_id, e.line
                """).param("ids", transactionIds).query((ResultSet rs) -> {
            byTransaction
                    .computeIfAbsent(rs.getObject("transaction_id", UUID.class), k -> new ArrayList<>())
                    .add(new LedgerEntry(
                            rs.getInt("line"),
                            rs.getLong("account_id"),
                            AccountType.valueOf(rs.getString("type")),
                            Side.ofCode(rs.getString("side")),
                            rs.getLong("amount_minor"),
                            rs.getString("currency")));
        });
        return byTransaction;
    }

    private static LedgerTransaction header(ResultSet rs, int row) throws SQLException {
        return new LedgerTransaction(
                rs.getObject("id", UUID.class),
                merchant(rs.getObject("merchant_id", UUID.class)),
                rs.getObject("payment_id", UUID.class),
                rs.getObject("source_id", UUID.class),
                rs.getString("kind"),
                rs.getLong("amount_minor"),
                rs.getString("currency"),
                rs.getObject("reverses", UUID.class),
                rs.getString("reason"),
                Db.instant(rs, "occurred_at"),
                Db.instant(rs, "recorded_at"),
                List.of());
    }

    private static MerchantId merchant(UUID id) {
        return id == null ? null : new MerchantId(id);
    }
}
