package dev.kopek.payments.domain;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The payment state machine, in one place. A transition not in {@link #ALLOWED} is a named rejection, never an
 * overwrite; persistence is compare-and-set on the predecessors listed here (L10). Final states have no way out.
 */
public enum PaymentStatus {
    PENDING,
    UNKNOWN,
    AUTHORIZED,
    CAPTURED,
    PARTIALLY_REFUNDED,
    REFUNDED,
    DISPUTED,
    CHARGED_BACK,
    DECLINED,
    FAILED,
    VOIDED,
    EXPIRED;

    private static final Map<PaymentStatus, Set<PaymentStatus>> ALLOWED = Map.ofEntries(
            Map.entry(PENDING, EnumSet.of(UNKNOWN, AUTHORIZED, CAPTURED, DECLINED, FAILED)),
            Map.entry(UNKNOWN, EnumSet.of(UNKNOWN, AUTHORIZED, CAPTURED, DECLINED, FAILED)),
            Map.entry(AUTHORIZED, EnumSet.of(CAPTURED, VOIDED, EXPIRED)),
            Map.entry(CAPTURED, EnumSet.of(PARTIALLY_REFUNDED, REFUNDED, DISPUTED)),
            Map.entry(PARTIALLY_REFUNDED, EnumSet.of(REFUNDED, DISPUTED)),
            // A chargeback is a fact from the PSP: it is recorded even on a refunded payment (docs/ledger.md).
            Map.entry(REFUNDED, EnumSet.of(DISPUTED)),
            // A won dispute gives the money back: the payment returns to what its amounts say it is. A second
            // dispute, or one closing while another stays open, keeps it DISPUTED.
            Map.entry(DISPUTED, EnumSet.of(DISPUTED, CAPTURED, PARTIALLY_REFUNDED, REFUNDED, CHARGED_BACK)),
            Map.entry(CHARGED_BACK, EnumSet.noneOf(PaymentStatus.class)),
            Map.entry(DECLINED, EnumSet.noneOf(PaymentStatus.class)),
            Map.entry(FAILED, EnumSet.noneOf(PaymentStatus.class)),
            Map.entry(VOIDED, EnumSet.noneOf(PaymentStatus.class)),
            Map.entry(EXPIRED, EnumSet.noneOf(PaymentStatus.class)));

    /** Where a capture may be reserved (its amount and expiry are the reservation's own guards). */
    public static final Set<PaymentStatus> CAPTURABLE =
            Set.copyOf(EnumSet.of(AUTHORIZED, CAPTURED, PARTIALLY_REFUNDED));
    /** Where a void may be reserved, or given back when the PSP refused it. */
    public static final Set<PaymentStatus> VOIDABLE = Set.copyOf(EnumSet.of(AUTHORIZED));
    /** Where a refund may be reserved (what is left to refund is the reservation's own guard). */
    public static final Set<PaymentStatus> REFUNDABLE = Set.copyOf(EnumSet.of(CAPTURED, PARTIALLY_REFUNDED));
    /**
     * Where an authorization's uncaptured rest may still be held, and is released at its expiry: the capturable
     * states, and a payment refunded, disputed or charged back after a partial capture.
     */
    public static final Set<PaymentStatus> HOLDING =
            Set.copyOf(EnumSet.of(AUTHORIZED, CAPTURED, PARTIALLY_REFUNDED, REFUNDED, DISPUTED, CHARGED_BACK));

    public boolean canMoveTo(PaymentStatus next) {
        return ALLOWED.get(this).contains(next);
    }

    public boolean isFinal() {
        return ALLOWED.get(this).isEmpty();
    }

    /** The states a row must be in for a move to {@code next}: the WHERE clause of the compare-and-set. */
    public static Set<PaymentStatus> predecessorsOf(PaymentStatus next) {
        Set<PaymentStatus> from = EnumSet.noneOf(PaymentStatus.class);
        ALLOWED.forEach((state, targets) -> {
            if (targets.contains(next)) {
                from.add(state);
            }
        });
        return from;
    }

    /** Whether money was taken: captures and refunds act only on these. */
    public boolean isPaid() {
        return this == CAPTURED
                || this == PARTIALLY_REFUNDED
                || this == REFUNDED
                || this == DISPUTED
                || this == CHARGED_BACK;
    }

    /** The status a merchant sees: an attempt still waiting for the PSP, or one whose outcome is unknown, is processing. */
    public String apiName() {
        return switch (this) {
            case PENDING, UNKNOWN -> "processing";
            case AUTHORIZED,
                    CAPTURED,
                    PARTIALLY_REFUNDED,
                    REFUNDED,
                    DISPUTED,
                    CHARGED_BACK,
                    DECLINED,
                    FAILED,
                    VOIDED,
                    EXPIRED -> name().toLowerCase(Locale.ROOT);
        };
    }
}
