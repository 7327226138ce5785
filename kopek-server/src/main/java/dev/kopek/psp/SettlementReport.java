package dev.kopek.psp;

import java.time.LocalDate;
import java.util.List;

/** A PSP's settlement report for one value date, with the raw bytes it came as (to detect a re-load). */
public record SettlementReport(String provider, LocalDate date, String raw, List<SettlementRow> rows) {
    public SettlementReport {
        rows = List.copyOf(rows);
    }
}
