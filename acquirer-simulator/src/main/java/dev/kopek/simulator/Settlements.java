package dev.kopek.simulator;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Builds the daily settlement files from the movement ledger, with any injected discrepancies applied.
 * Files are computed on request, so they always reflect the ledger as it is now.
 */
final class Settlements {
    static final String CSV_HEADER = "psp_reference,type,amount,currency,value_date";

    /** A row with what orders it: when it happened, then reference, then a fixed rank of its type. */
    private record Line(SettlementRow row, Instant at, int rank) {
        boolean fee() {
            return "fee".equals(row.type());
        }
    }

    private static final Comparator<Line> ORDER = Comparator.comparing(Line::at)
            .thenComparing(l -> l.row().pspReference())
            .thenComparingInt(Line::rank);

    private final ConcurrentHashMap<LocalDate, SettlementDiscrepancies> discrepancies = new ConcurrentHashMap<>();

    /**
     * Adds discrepancies to a day's file. Every reference must name a row of that file as it would be
     * without them, so a typo fails loudly instead of injecting nothing.
     */
    void add(LocalDate date, SettlementDiscrepancies added, List<MovementLedger.Entry> ledger) {
        Set<String> known = new HashSet<>();
        incoming(date, ledger).forEach(line -> known.add(line.row().pspReference()));
        Stream.of(added.missing().stream(), added.wrongAmount().keySet().stream(), added.nextDay().stream())
                .flatMap(s -> s)
                .filter(ref -> !known.contains(ref))
                .findFirst()
                .ifPresent(ref -> {
                    throw new IllegalArgumentException("no row with psp_reference " + ref + " in the file of " + date);
                });
        discrepancies.merge(date, added, SettlementDiscrepancies::merge);
    }

    List<SettlementRow> rows(LocalDate date, List<MovementLedger.Entry> ledger) {
        SettlementDiscrepancies d = discrepancies.getOrDefault(date, SettlementDiscrepancies.none());
        List<SettlementRow> rows = new ArrayList<>();
        incoming(date, ledger).stream()
                .filter(line -> !d.missing().contains(line.row().pspReference()))
                .filter(line -> !d.nextDay().contains(line.row().pspReference()))
                .sorted(ORDER)
                .map(line -> {
                    Long wrong = d.wrongAmount().get(line.row().pspReference());
                    return wrong == null || line.fee() ? line.row() : line.row().withAmount(wrong);
                })
                .forEach(rows::add);
        rows.addAll(d.extra());
        return rows;
    }

    static String csv(List<SettlementRow> rows) {
        StringBuilder csv = new StringBuilder(CSV_HEADER).append('\n');
        rows.forEach(row -> csv.append(row.csv()).append('\n'));
        return csv.toString();
    }

    /** The day's rows before its own discrepancies: its movements plus rows pushed from the day before. */
    private List<Line> incoming(LocalDate date, List<MovementLedger.Entry> ledger) {
        List<Line> lines = new ArrayList<>();
        for (MovementLedger.Entry entry : ledger) {
            MovementRecord m = entry.movement();
            if (m.succeeded() && valueDate(m).equals(date)) {
                lines.addAll(lines(entry, date));
            }
        }
        LocalDate previous = date.minusDays(1);
        SettlementDiscrepancies before = discrepancies.get(previous);
        if (before != null && !before.nextDay().isEmpty()) {
            for (Line line : incoming(previous, ledger)) {
                if (before.nextDay().contains(line.row().pspReference())) {
                    lines.add(new Line(line.row().withValueDate(date), line.at(), line.rank()));
                }
            }
        }
        return lines;
    }

    private static LocalDate valueDate(MovementRecord m) {
        return LocalDate.ofInstant(m.createdAt(), ZoneOffset.UTC);
    }

    private static List<Line> lines(MovementLedger.Entry entry, LocalDate date) {
        MovementRecord m = entry.movement();
        return switch (m.type()) {
            case MovementRecord.CHARGE, MovementRecord.CAPTURE -> {
                Line charge = line(m, "charge", m.amount(), date, 0);
                yield entry.fee() == 0 ? List.of(charge) : List.of(charge, line(m, "fee", entry.fee(), date, 1));
            }
            case MovementRecord.REFUND -> List.of(line(m, "refund", m.amount(), date, 2));
            case MovementRecord.CHARGEBACK -> List.of(line(m, "chargeback", m.amount(), date, 3));
            case MovementRecord.CHARGEBACK_REVERSAL -> List.of(line(m, "chargeback_reversal", m.amount(), date, 4));
            default -> List.of();
        };
    }

    private static Line line(MovementRecord m, String type, long amount, LocalDate date, int rank) {
        return new Line(new SettlementRow(m.id(), type, amount, m.currency(), date), m.createdAt(), rank);
    }
}
