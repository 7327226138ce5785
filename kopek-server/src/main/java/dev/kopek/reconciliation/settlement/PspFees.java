package dev.kopek.reconciliation.settlement;

import dev.kopek.ledger.Ledger;
import dev.kopek.ledger.PspFee;
import dev.kopek.platform.Db;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Journals the fee rows of a date's current settlement file (docs/ledger.md, "PSP fees"). Runs inside the date's
 * pass, under its lock. For each (reference, currency) the file's fee is compared with what {@code psp_fees} says was
 * posted; only the difference is posted, so a re-run or a re-load of the same bytes posts nothing, a corrected
 * version posts its correction once, and a fee a new version no longer lists is returned.
 */
@Component
class PspFees {

    private static final Logger log = LoggerFactory.getLogger(PspFees.class);

    private final JdbcClient jdbc;
    private final Ledger ledger;
    private final Clock clock;

    PspFees(JdbcClient jdbc, Ledger ledger, Clock clock) {
        this.jdbc = jdbc;
        this.ledger = ledger;
        this.clock = clock;
    }

    /** A fee whose posted amount differs from what the date's current file says; its row is locked. */
    private record Change(
            String pspReference, String currency, long wantedMinor, long postedMinor, int revision, UUID paymentId) {}

    /** Posts every fee change of the file; the caller's transaction holds the date's lock. Answers how many. */
    int post(LoadedFile file) {
        Instant now = clock.instant();
        openRows(file, now);
        List<Change> changes = changes(file);
        Instant valueDay = file.date().atStartOfDay(ZoneOffset.UTC).toInstant();
        for (Change change : changes) {
            int revision = change.revision() + 1;
            jdbc.sql("""
                    UPDATE psp_fees SET amount_minor = :wanted, revision = :revision, settlement_date = :date,
                                        file_id = :file, payment_id = :payment, updated_at = :now
                     WHERE provider = :provider AND psp_reference = :reference AND currency = :currency
                    """)
                    .param("wanted", change.wantedMinor())
                    .param("revision", revision)
                    .param("date", file.date())
                    .param("file", file.id())
                    .param("payment", change.paymentId(), Types.OTHER)
                    .param("now", Db.at(now))
                    .param("provider", file.provider())
                    .param("reference", change.pspReference())
                    .param("currency", change.currency())
                    .update();
            ledger.postPspFee(new PspFee(
                    sourceId(file.provider(), change, revision),
                    change.paymentId(),
                    Math.subtractExact(change.wantedMinor(), change.postedMinor()),
                    change.currency(),
                    valueDay));
        }
        if (!changes.isEmpty()) {
            log.info(
                    "settlement: {} PSP fee change(s) journaled: provider={} date={} file_version={}",
                    changes.size(),
                    file.provider(),
                    file.date(),
                    file.version());
        }
        return changes.size();
    }

    /** A row at zero for every fee the file lists that nothing was posted for yet, so that all can be locked. */
    private void openRows(LoadedFile file, Instant now) {
        jdbc.sql("""
                INSERT INTO psp_fees (provider, psp_reference, currency, amount_minor, revision, settlement_date,
                                      file_id, updated_at)
                SELECT DISTINCT :provider, psp_reference, currency, 0, 0, :date, :file, :now
                  FROM settlement_rows WHERE file_id = :file AND type = 'fee'
                 ORDER BY psp_reference, currency
                ON CONFLICT (provider, psp_reference, currency) DO NOTHING
                """)
                .param("provider", file.provider())
                .param("date", file.date())
                .param("file", file.id())
                .param("now", Db.at(now))
                .update();
    }

    /**
     * The file's fees per (reference, currency), plus a zero for each fee this date's file set before and the current
     * version no longer lists; only those that differ from what was posted, locked in reference order (two dates'
     * passes that share a reference lock it in the same order), each with Kopek's payment when it knows the charge.
     */
    private List<Change> changes(LoadedFile file) {
        return jdbc.sql("""
                WITH listed AS (
                    SELECT psp_reference, currency, sum(amount) AS wanted
                      FROM settlement_rows WHERE file_id = :file AND type = 'fee'
                     GROUP BY psp_reference, currency
                )
                SELECT f.psp_reference, f.currency, COALESCE(l.wanted, 0) AS wanted, f.amount_minor, f.revision,
                       COALESCE((SELECT p.id FROM published_payments p WHERE p.psp_reference = f.psp_reference LIMIT 1),
                                (SELECT o.payment_id FROM published_payment_operations o
                                  WHERE o.psp_reference = f.psp_reference AND o.kind = 'capture' LIMIT 1))
                           AS payment_id
                  FROM psp_fees f
                  LEFT JOIN listed l ON l.psp_reference = f.psp_reference AND l.currency = f.currency
                 WHERE f.provider = :provider
                   AND (l.psp_reference IS NOT NULL OR f.settlement_date = :date)
                   AND f.amount_minor <> COALESCE(l.wanted, 0)
                 ORDER BY f.psp_reference, f.currency
                   FOR UPDATE OF f
                """)
                .param("file", file.id())
                .param("provider", file.provider())
                .param("date", file.date())
                .query((rs, n) -> new Change(
                        rs.getString("psp_reference"),
                        rs.getString("currency"),
                        rs.getLong("wanted"),
                        rs.getLong("amount_minor"),
                        rs.getInt("revision"),
                        rs.getObject("payment_id", UUID.class)))
                .list();
    }

    /** The n-th change of one fee has one source id, whichever instance posts it. */
    private static UUID sourceId(String provider, Change change, int revision) {
        String name =
                "kopek.psp-fee:" + provider + ":" + change.pspReference() + ":" + change.currency() + ":" + revision;
        return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
    }
}
