package dev.kopek.reconciliation.settlement;

import dev.kopek.money.TimeOrderedIds;
import dev.kopek.platform.Db;
import dev.kopek.psp.SettlementReport;
import dev.kopek.psp.SettlementRow;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.LocalDate;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Stored settlement files. A load is one short transaction under the date's lock: the same bytes again change
 * nothing (unique on provider, date and SHA-256); other bytes become the next version, which then counts.
 */
@Repository
public class SettlementFiles {

    private static final Logger log = LoggerFactory.getLogger(SettlementFiles.class);
    /** Rows per INSERT … SELECT FROM unnest(…): bounds one statement's parameters, not the file. */
    private static final int ROWS_PER_STATEMENT = 5_000;

    private static final int MAX_REFERENCE_LENGTH = 128;
    private static final int MAX_TYPE_LENGTH = 32;

    private final JdbcClient jdbc;
    private final TransactionTemplate tx;
    private final Clock clock;

    SettlementFiles(JdbcClient jdbc, TransactionTemplate tx, Clock clock) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.clock = clock;
    }

    /** Stores the report unless these exact bytes are stored already; either way answers the stored version. */
    public LoadedFile load(SettlementReport report) {
        String sha256 = sha256(report.raw());
        report.rows().forEach(SettlementFiles::checkFits);
        return tx.execute(status -> {
            DateLock.hold(jdbc, report.provider(), report.date());
            Optional<LoadedFile> same = find(report.provider(), report.date(), sha256);
            if (same.isPresent()) {
                return same.get();
            }
            LoadedFile stored = insertFile(report, sha256);
            insertRows(stored.id(), report.rows());
            log.info(
                    "settlement file loaded: provider={} date={} version={} rows={} sha256={}",
                    stored.provider(),
                    stored.date(),
                    stored.version(),
                    stored.rowCount(),
                    sha256);
            return stored;
        });
    }

    /** The version that counts for a date: the latest distinct content loaded. */
    public Optional<LoadedFile> current(String provider, LocalDate date) {
        return jdbc.sql("""
                SELECT * FROM settlement_files WHERE provider = :provider AND settlement_date = :date
                 ORDER BY version DESC LIMIT 1
                """)
                .param("provider", provider)
                .param("date", date)
                .query((rs, n) -> map(rs, false))
                .optional();
    }

    private Optional<LoadedFile> find(String provider, LocalDate date, String sha256) {
        return jdbc.sql("""
                SELECT * FROM settlement_files WHERE provider = :provider AND settlement_date = :date AND sha256 = :sha
                """)
                .param("provider", provider)
                .param("date", date)
                .param("sha", sha256)
                .query((rs, n) -> map(rs, false))
                .optional();
    }

    private LoadedFile insertFile(SettlementReport report, String sha256) {
        // The date's lock is held, so max(version) + 1 cannot race; the unique constraints are the backstop.
        return jdbc.sql("""
                INSERT INTO settlement_files (id, provider, settlement_date, version, sha256, raw, row_count, loaded_at)
                SELECT :id, :provider, :date, COALESCE(max(version), 0) + 1, :sha, :raw, :rows, :now
                  FROM settlement_files WHERE provider = :provider AND settlement_date = :date
                RETURNING *
                """)
                .param("id", TimeOrderedIds.next(clock))
                .param("provider", report.provider())
                .param("date", report.date())
                .param("sha", sha256)
                .param("raw", report.raw())
                .param("rows", report.rows().size())
                .param("now", Db.at(clock.instant()))
                .query((rs, n) -> map(rs, true))
                .single();
    }

    private void insertRows(UUID fileId, List<SettlementRow> rows) {
        for (int from = 0; from < rows.size(); from += ROWS_PER_STATEMENT) {
            List<SettlementRow> chunk = rows.subList(from, Math.min(rows.size(), from + ROWS_PER_STATEMENT));
            int[] lines = new int[chunk.size()];
            String[] references = new String[chunk.size()];
            String[] types = new String[chunk.size()];
            long[] amounts = new long[chunk.size()];
            String[] currencies = new String[chunk.size()];
            String[] valueDates = new String[chunk.size()];
            Long[] settledAmounts = new Long[chunk.size()];
            String[] settledCurrencies = new String[chunk.size()];
            BigDecimal[] rates = new BigDecimal[chunk.size()];
            for (int i = 0; i < chunk.size(); i++) {
                SettlementRow row = chunk.get(i);
                lines[i] = from + i + 1;
                references[i] = row.pspReference();
                types[i] = row.type();
                amounts[i] = row.amountMinor();
                currencies[i] = row.currency();
                valueDates[i] = row.valueDate().toString();
                if (row.settled() != null) {
                    settledAmounts[i] = row.settled().amountMinor();
                    settledCurrencies[i] = row.settled().currency();
                    rates[i] = row.settled().exchangeRate();
                }
            }
            int inserted = jdbc.sql("""
                    INSERT INTO settlement_rows (file_id, line_no, psp_reference, type, amount, currency, value_date,
                                                 settled_amount, settled_currency, exchange_rate)
                    SELECT :file, r.line_no, r.psp_reference, r.type, r.amount, r.currency, r.value_date,
                           r.settled_amount, r.settled_currency, r.exchange_rate
                      FROM unnest(CAST(:lines AS INT[]), CAST(:references AS TEXT[]), CAST(:types AS TEXT[]),
                                  CAST(:amounts AS BIGINT[]), CAST(:currencies AS TEXT[]), CAST(:valueDates AS DATE[]),
                                  CAST(:settledAmounts AS BIGINT[]), CAST(:settledCurrencies AS TEXT[]),
                                  CAST(:rates AS NUMERIC[]))
                           AS r (line_no, psp_reference, type, amount, currency, value_date, settled_amount,
                                 settled_currency, exchange_rate)
                    """)
                    .param("file", fileId)
                    .param("lines", lines)
                    .param("references", references)
                    .param("types", types)
                    .param("amounts", amounts)
                    .param("currencies", currencies)
                    .param("valueDates", valueDates)
                    .param("settledAmounts", settledAmounts)
                    .param("settledCurrencies", settledCurrencies)
                    .param("rates", rates)
                    .update();
            if (inserted != chunk.size()) {
                throw new IllegalStateException("stored " + inserted + " of " + chunk.size() + " settlement rows");
            }
        }
    }

    /** A row the table cannot hold makes the whole file unloadable, loudly, rather than half-stored. */
    private static void checkFits(SettlementRow row) {
        if (row.pspReference().isEmpty()
                || row.pspReference().length() > MAX_REFERENCE_LENGTH
                || row.type().isEmpty()
                || row.type().length() > MAX_TYPE_LENGTH
                || !row.currency().matches("[A-Z]{3}")) {
            throw new IllegalArgumentException("settlement row cannot be stored: " + row);
        }
    }

    static String sha256(String raw) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(raw.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static LoadedFile map(ResultSet rs, boolean loadedNow) throws SQLException {
        return new LoadedFile(
                rs.getObject("id", UUID.class),
                rs.getString("provider"),
                rs.getObject("settlement_date", LocalDate.class),
                rs.getInt("version"),
                rs.getString("sha256"),
                rs.getInt("row_count"),
                Db.instant(rs, "loaded_at"),
                loadedNow);
    }
}
