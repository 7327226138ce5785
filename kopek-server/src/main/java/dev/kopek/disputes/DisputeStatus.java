package dev.kopek.disputes;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A chargeback's state machine, in one table: OPEN until the PSP decides it, then WON or LOST, both final. The
 * stored row moves by compare-and-set on {@link #predecessorsOf} the target, so a late or repeated outcome moves
 * nothing; each state entered is announced as {@link #eventType()}.
 */
public enum DisputeStatus {
    OPEN,
    WON,
    LOST;

    private static final Map<DisputeStatus, Set<DisputeStatus>> ALLOWED = Map.of(
            OPEN, EnumSet.of(WON, LOST),
            WON, EnumSet.noneOf(DisputeStatus.class),
            LOST, EnumSet.noneOf(DisputeStatus.class));

    public boolean canMoveTo(DisputeStatus next) {
        return ALLOWED.get(this).contains(next);
    }

    public boolean isFinal() {
        return ALLOWED.get(this).isEmpty();
    }

    /** The states a row must be in for a move to {@code next}: the WHERE clause of the compare-and-set. */
    public static Set<DisputeStatus> predecessorsOf(DisputeStatus next) {
        Set<DisputeStatus> from = EnumSet.noneOf(DisputeStatus.class);
        ALLOWED.forEach((state, targets) -> {
            if (targets.contains(next)) {
                from.add(state);
            }
        });
        return from;
    }

    /** The event that announces entering this state: {@code dispute.opened}, {@code dispute.won}, {@code dispute.lost}. */
    public String eventType() {
        return "dispute." + (this == OPEN ? "opened" : apiName());
    }

    public String apiName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
