package dev.kopek.reconciliation.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.SettlementReport;
import dev.kopek.simulator.SettlementDiscrepancies;
import dev.kopek.support.Api;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** Loading a file is idempotent; a different file for the same date is a new version, and the latest counts. */
class SettlementFileLoadTest extends SettlementSupport {

    @Autowired
    SettlementFiles files;

    @Autowired
    PaymentProvider psp;

    @Test
    void loadingTheSameFileTwiceChangesNothingAndADifferentFileIsTheNextVersion() {
        LocalDate day = freshDay();
        Api api = newMerchant();
        String first = charge(pay(api, 1_200, "pm_ok"));
        charge(pay(api, 3_400, "pm_ok"));
        moveToDayAfter(day);

        SettlementReport report = psp.settlementReport(day);
        assertThat(report.rows()).hasSize(2);
        LoadedFile loaded = files.load(report);
        assertThat(loaded.loadedNow()).isTrue();
        assertThat(loaded.version()).isEqualTo(1);
        long fileRows = rows("settlement_files");
        long lineRows = rows("settlement_rows");

        LoadedFile reloaded = files.load(psp.settlementReport(day));
        assertThat(reloaded.loadedNow()).isFalse();
        assertThat(reloaded.id()).isEqualTo(loaded.id());
        assertThat(reloaded.sha256()).isEqualTo(loaded.sha256());
        assertThat(rows("settlement_files")).isEqualTo(fileRows);
        assertThat(rows("settlement_rows")).isEqualTo(lineRows);

        JsonNode run = runOk(day);
        assertThat(passOf(run, day).get("file").get("version").asInt()).isEqualTo(1);
        assertThat(passOf(run, day).get("breaks_seen").asInt()).isZero();
        assertThat(versions(day)).isEqualTo(1);

        SIMULATOR.addSettlementDiscrepancies(day, SettlementDiscrepancies.none().withWrongAmount(first, 1_201));
        JsonNode changed = passOf(runOk(day), day);
        assertThat(changed.get("file").get("version").asInt()).isEqualTo(2);
        assertThat(only(breaksOf(day, "open"), first).get("type").asString()).isEqualTo("amount_mismatch");
        assertThat(passOf(runOk(day), day).get("file").get("version").asInt()).isEqualTo(2);
        assertThat(versions(day)).isEqualTo(2);
    }

    private long versions(LocalDate day) {
        return jdbc.sql("SELECT count(*) FROM settlement_files WHERE settlement_date = :day")
                .param("day", day)
                .query(Long.class)
                .single();
    }
}
