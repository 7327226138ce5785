package dev.kopek.payments.domain;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The one state machine of captures, voids and refunds, in one table. A move not in {@link #ALLOWED} is refused
 * ({@link IllegalTransition}); persistence is compare-and-set on {@link #predecessorsOf} the target. UNKNOWN to
 * UNKNOWN is allowed (another try, still unknown) but changes no version.
 */
public enum OperationStatus {
    PENDING,
    UNKNOWN,
    SUCCEEDED,
    FAILED;

    private static final Map<OperationStatus, Set<OperationStatus>> ALLOWED = Map.of(
            PENDING, EnumSet.of(UNKNOWN, SUCCEEDED, FAILED),
            UNKNOWN, EnumSet.of(UNKNOWN, SUCCEEDED, FAILED),
            SUCCEEDED, EnumSet.noneOf(OperationStatus.class),
            FAILED, EnumSet.noneOf(OperationStatus.class));

    public boolean canMoveTo(OperationStatus next) {
        return ALLOWED.get(this).contains(next);
    }

    public boolean isFinal() {
        return ALLOWED.get(this).isEmpty();
    }

    /** The states a row must be in for a move to {@code next}: the WHERE clause of the compare-and-set. */
    public static Set<OperationStatus> predecessorsOf(OperationStatus next) {
        Set<OperationStatus> from = EnumSet.noneOf(OperationStatus.class);
        ALLOWED.forEach((state, targets) -> {
            if (targets.contains(next)) {
                from.add(state);
            }
        });
        return from;
    }

    public String apiName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
