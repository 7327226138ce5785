package dev.kopek.simulator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deliberate errors in one day's settlement file, for testing reconciliation. References name rows of
 * that day's file; a reference matches all its rows (a charge and its fee, a chargeback and its reversal).
 *
 * @param missing     references whose rows are left out
 * @param extra       rows added at the end of the file that match nothing the acquirer did
 * @param wrongAmount reference to the amount its non-fee rows show instead
 * @param nextDay     references whose rows appear in the following day's file, with that day as value date
 */
public record SettlementDiscrepancies(
        List<String> missing, List<SettlementRow> extra, Map<String, Long> wrongAmount, List<String> nextDay) {

    public SettlementDiscrepancies {
        missing = missing == null ? List.of() : List.copyOf(missing);
        extra = extra == null ? List.of() : List.copyOf(extra);
        wrongAmount = wrongAmount == null ? Map.of() : Map.copyOf(wrongAmount);
        nextDay = nextDay == null ? List.of() : List.copyOf(nextDay);
    }

    public static SettlementDiscrepancies none() {
        return new SettlementDiscrepancies(null, null, null, null);
    }

    public SettlementDiscrepancies withMissing(String... pspReferences) {
        return merge(new SettlementDiscrepancies(List.of(pspReferences), null, null, null));
    }

    public SettlementDiscrepancies withExtra(SettlementRow row) {
        return merge(new SettlementDiscrepancies(null, List.of(row), null, null));
    }

    public SettlementDiscrepancies withWrongAmount(String pspReference, long amount) {
        return merge(new SettlementDiscrepancies(null, null, Map.of(pspReference, amount), null));
    }

    public SettlementDiscrepancies withNextDay(String... pspReferences) {
        return merge(new SettlementDiscrepancies(null, null, null, List.of(pspReferences)));
    }

    /** Both sets of discrepancies; the later wrong amount of a reference wins. */
    SettlementDiscrepancies merge(SettlementDiscrepancies later) {
        List<String> allMissing = new ArrayList<>(missing);
        allMissing.addAll(later.missing);
        List<SettlementRow> allExtra = new ArrayList<>(extra);
        allExtra.addAll(later.extra);
        Map<String, Long> allWrong = new LinkedHashMap<>(wrongAmount);
        allWrong.putAll(later.wrongAmount);
        List<String> allNextDay = new ArrayList<>(nextDay);
        allNextDay.addAll(later.nextDay);
        return new SettlementDiscrepancies(allMissing, allExtra, allWrong, allNextDay);
    }
}
