package dev.kopek.psp.simulator;

import dev.kopek.psp.SettlementRow;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/** The simulator's settlement CSV: {@code psp_reference,type,amount,currency,value_date}, header first. */
final class SettlementCsv {

    static final String HEADER = "psp_reference,type,amount,currency,value_date";
    private static final int MAX_ROWS = 1_000_000;

    private SettlementCsv() {}

    static List<SettlementRow> parse(String csv) {
        String[] lines = csv.split("\r?\n");
        if (lines.length == 0 || !lines[0].trim().equals(HEADER)) {
            throw new IllegalArgumentException("settlement file does not start with '" + HEADER + "'");
        }
        List<SettlementRow> rows = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            if (rows.size() == MAX_ROWS) {
                throw new IllegalArgumentException("settlement file has more than " + MAX_ROWS + " rows");
            }
            String[] cells = lines[i].split(",", -1);
            if (cells.length != 5) {
                throw new IllegalArgumentException("settlement line " + (i + 1) + " has " + cells.length + " cells");
            }
            try {
                rows.add(new SettlementRow(
                        cells[0].trim(),
                        cells[1].trim(),
                        Long.parseLong(cells[2].trim()),
                        cells[3].trim(),
                        LocalDate.parse(cells[4].trim())));
            } catch (NumberFormatException | DateTimeParseException e) {
                throw new IllegalArgumentException("settlement line " + (i + 1) + " is malformed: " + lines[i], e);
            }
        }
        return rows;
    }
}
