package dev.kopek.ledger.domain;

import static dev.kopek.ledger.domain.AccountType.CHARGEBACKS;
import static dev.kopek.ledger.domain.AccountType.HOLDS_PAYABLE;
import static dev.kopek.ledger.domain.AccountType.HOLDS_RECEIVABLE;
import static dev.kopek.ledger.domain.AccountType.MERCHANT_PAYABLE;
import static dev.kopek.ledger.domain.AccountType.PLATFORM_REVENUE;
import static dev.kopek.ledger.domain.AccountType.PSP_FEES;
import static dev.kopek.ledger.domain.AccountType.PSP_RECEIVABLE;
import static dev.kopek.ledger.domain.AccountType.REFUNDS_PENDING;
import static dev.kopek.ledger.domain.PostingRules.Term.AMOUNT;
import static dev.kopek.ledger.domain.PostingRules.Term.FEE;
import static dev.kopek.ledger.domain.PostingRules.Term.HOLD_CLOSED;
import static dev.kopek.ledger.domain.PostingRules.Term.NET_OF_FEE;

import dev.kopek.events.MoneyMovement;
import java.util.List;
import java.util.Optional;

/**
 * The posting table (docs/ledger.md), one arm per kind of movement. Pure: the caller has already read what a
 * posting depends on (the merchant's fee, how much of the authorization hold is still open), or a statement computes
 * it and evaluates the same {@link #legs} in SQL ({@code JournalStore.computedPart}).
 */
public final class PostingRules {

    private PostingRules() {}

    /**
     * @param amountMinor the movement's amount
     * @param feeMinor the fee on a capture (0 for every other kind); at most the amount
     * @param holdClosedMinor how much of the payment's open authorization hold a capture consumes or a release
     *     gives back; at most the amount
     * @return the posting, or empty when the movement moves nothing the ledger tracks (a release of a hold that
     *     is already closed)
     */
    public static Optional<Posting> forMovement(
            MoneyMovement.Kind kind, long amountMinor, long feeMinor, long holdClosedMinor) {
        if (amountMinor <= 0
                || feeMinor < 0
                || feeMinor > amountMinor
                || holdClosedMinor < 0
                || holdClosedMinor > amountMinor) {
            throw new IllegalArgumentException("inconsistent posting inputs: amount " + amountMinor + ", fee "
                    + feeMinor + ", hold closed " + holdClosedMinor);
        }
        if (feeMinor > 0 && kind != MoneyMovement.Kind.CAPTURED) {
            throw new IllegalArgumentException("only a capture pays a fee, not " + kind);
        }
        var posting = new Posting.Builder();
        for (Leg leg : legs(kind)) {
            long value = switch (leg.term()) {
                case AMOUNT -> amountMinor;
                case NET_OF_FEE -> amountMinor - feeMinor;
                case FEE -> feeMinor;
                case HOLD_CLOSED -> holdClosedMinor;
            };
            posting.add(leg.account(), leg.side(), value);
        }
        // A movement all of whose lines are zero moves nothing the ledger tracks: a release of a closed hold.
        return posting.isEmpty() ? Optional.empty() : Optional.of(posting.build());
    }

    /** What a line's amount is in a movement's own terms: evaluated here in Java, or by a statement in SQL. */
    public enum Term {
        /** The movement's amount. */
        AMOUNT,
        /** The amount less the fee: what a capture owes the merchant. */
        NET_OF_FEE,
        /** The fee a capture pays. */
        FEE,
        /** How much of the payment's open authorization hold the movement closes. */
        HOLD_CLOSED
    }

    /** One line of the posting table: an account, a side, and the term its amount is. */
    public record Leg(AccountType account, Side side, Term term) {}

    /**
     * The posting table: the lines of each kind of movement, in order. A line whose amount comes to zero is left
     * out of the posting ({@link #forMovement} here, the journal's statement part in SQL).
     */
    public static List<Leg> legs(MoneyMovement.Kind kind) {
        return switch (kind) {
            case AUTHORIZATION_HELD -> List.of(debit(HOLDS_RECEIVABLE, AMOUNT), credit(HOLDS_PAYABLE, AMOUNT));
            case CAPTURED ->
                List.of(
                        debit(PSP_RECEIVABLE, AMOUNT),
                        credit(MERCHANT_PAYABLE, NET_OF_FEE),
                        credit(PLATFORM_REVENUE, FEE),
                        debit(HOLDS_PAYABLE, HOLD_CLOSED),
                        credit(HOLDS_RECEIVABLE, HOLD_CLOSED));
            case AUTHORIZATION_RELEASED ->
                List.of(debit(HOLDS_PAYABLE, HOLD_CLOSED), credit(HOLDS_RECEIVABLE, HOLD_CLOSED));
            case REFUND_RESERVED -> List.of(debit(MERCHANT_PAYABLE, AMOUNT), credit(REFUNDS_PENDING, AMOUNT));
            case REFUND_SUCCEEDED -> List.of(debit(REFUNDS_PENDING, AMOUNT), credit(PSP_RECEIVABLE, AMOUNT));
            case REFUND_RELEASED -> List.of(debit(REFUNDS_PENDING, AMOUNT), credit(MERCHANT_PAYABLE, AMOUNT));
            case CHARGEBACK_WITHDRAWN -> List.of(debit(MERCHANT_PAYABLE, AMOUNT), credit(CHARGEBACKS, AMOUNT));
            case CHARGEBACK_REVERSED -> List.of(debit(CHARGEBACKS, AMOUNT), credit(MERCHANT_PAYABLE, AMOUNT));
        };
    }

    private static Leg debit(AccountType account, Term term) {
        return new Leg(account, Side.DEBIT, term);
    }

    private static Leg credit(AccountType account, Term term) {
        return new Leg(account, Side.CREDIT, term);
    }

    /**
     * A change of the fee the PSP took on one of its settled movements: a positive change is charged (Kopek's
     * expense, netted from what the PSP owes), a negative one (a corrected file) is returned.
     */
    public static Posting pspFee(long changeMinor) {
        if (changeMinor == 0) {
            throw new IllegalArgumentException("a PSP fee posting changes the fee");
        }
        long amount = Math.absExact(changeMinor);
        Posting charged = new Posting.Builder()
                .debit(PSP_FEES, amount)
                .credit(PSP_RECEIVABLE, amount)
                .build();
        return changeMinor > 0 ? charged : charged.reversed();
    }
}
