package dev.kopek.refunds.domain;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The refund state machine. Final states have no way out; a duplicate outcome finds nothing to move. */
public enum RefundStatus {
    PENDING, UNKNOWN, SUCCEEDED, FAILED;

    private static final Map<RefundStatus, Set<RefundStatus>> ALLOWED = Map.of(
            PENDING, EnumSet.of(UNKNOWN, SUCCEEDED, FAILED),
            UNKNOWN, EnumSet.of(UNKNOWN, SUCCEEDED, FAILED),
            SUCCEEDED, EnumSet.noneOf(RefundStatus.class),
            FAILED, EnumSet.noneOf(RefundStatus.class));

    public boolean canMoveTo(RefundStatus next) {
        return ALLOWED.get(this).contains(next);
    }

    public boolean isFinal() {
        return ALLOWED.get(this).isEmpty();
    }

    public static Set<RefundStatus> predecessorsOf(RefundStatus next) {
        Set<RefundStatus> from = EnumSet.noneOf(RefundStatus.class);
        ALLOWED.forEach((state, targets) -> {
            if (targets.contains(next)) {
                from.add(state);
            }
        });
        return from;
    }

    /** A refund whose outcome is not known yet is pending to the merchant. */
    public String apiName() {
        return this == UNKNOWN ? "pending" : name().toLowerCase(Locale.ROOT);
    }
}
