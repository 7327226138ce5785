package dev.kopek.disputes;

import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An inquiry's state machine, in one table. It is recorded OPEN, or CLOSED when its closing arrives first; OPEN
 * closes; OPEN or CLOSED escalates when the issuer turns it into a chargeback; ESCALATED is final. The stored row
 * moves by compare-and-set on {@link #predecessorsOf} the target. OPEN and CLOSED are announced; ESCALATED is
 * announced as the chargeback's own {@code dispute.opened}, so the inquiry's version does not move with it.
 */
public enum InquiryStatus {
    OPEN,
    CLOSED,
    ESCALATED;

    private static final Map<InquiryStatus, Set<InquiryStatus>> ALLOWED = Map.of(
            OPEN, EnumSet.of(CLOSED, ESCALATED),
            CLOSED, EnumSet.of(ESCALATED),
            ESCALATED, EnumSet.noneOf(InquiryStatus.class));

    public boolean canMoveTo(InquiryStatus next) {
        return ALLOWED.get(this).contains(next);
    }

    public boolean isFinal() {
        return ALLOWED.get(this).isEmpty();
    }

    /** The states a row must be in for a move to {@code next}: the WHERE clause of the compare-and-set. */
    public static Set<InquiryStatus> predecessorsOf(InquiryStatus next) {
        Set<InquiryStatus> from = EnumSet.noneOf(InquiryStatus.class);
        ALLOWED.forEach((state, targets) -> {
            if (targets.contains(next)) {
                from.add(state);
            }
        });
        return from;
    }

    /** The event that announces entering this state, if the inquiry itself announces it. */
    public Optional<String> eventType() {
        return switch (this) {
            case OPEN -> Optional.of("dispute.inquiry_opened");
            case CLOSED -> Optional.of("dispute.inquiry_closed");
            case ESCALATED -> Optional.empty();
        };
    }

    /** The {@code status} an announced inquiry shows (schema Dispute); an escalated one is shown as its chargeback. */
    public String apiName() {
        return switch (this) {
            case OPEN -> "inquiry";
            case CLOSED -> "inquiry_closed";
            case ESCALATED -> "escalated";
        };
    }
}
