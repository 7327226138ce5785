package dev.kopek.ledger.domain;

import static dev.kopek.ledger.domain.AccountType.CHARGEBACKS;
import static dev.kopek.ledger.domain.AccountType.HOLDS_PAYABLE;
import static dev.kopek.ledger.domain.AccountType.HOLDS_RECEIVABLE;
import static dev.kopek.ledger.domain.AccountType.MERCHANT_PAYABLE;
import static dev.kopek.ledger.domain.AccountType.PLATFORM_REVENUE;
import static dev.kopek.ledger.domain.AccountType.PSP_FEES;
import static dev.kopek.ledger.domain.AccountType.PSP_RECEIVABLE;
import static dev.kopek.ledger.domain.AccountType.REFUNDS_PENDING;

import dev.kopek.events.MoneyMovement;
import java.util.Optional;

/**
 * The posting table (docs/ledger.md), one arm per kind of movement. Pure: the caller has already read what a
 * posting depends on (the merchant's fee, how much of the authorization hold is still open).
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
        switch (kind) {
            case AUTHORIZATION_HELD ->
                posting.debit(HOLDS_RECEIVABLE, amountMinor).credit(HOLDS_PAYABLE, amountMinor);
            case CAPTURED ->
                posting.debit(PSP_RECEIVABLE, amountMinor)
                        .credit(MERCHANT_PAYABLE, amountMinor - feeMinor)
                        .credit(PLATFORM_REVENUE, feeMinor)
                        .debit(HOLDS_PAYABLE, holdClosedMinor)
                        .credit(HOLDS_RECEIVABLE, holdClosedMinor);
            case AUTHORIZATION_RELEASED -> {
                if (holdClosedMinor == 0) {
                    return Optional.empty();
                }
                posting.debit(HOLDS_PAYABLE, holdClosedMinor).credit(HOLDS_RECEIVABLE, holdClosedMinor);
            }
            case REFUND_RESERVED -> posting.debit(MERCHANT_PAYABLE, amountMinor).credit(REFUNDS_PENDING, amountMinor);
            case REFUND_SUCCEEDED -> posting.debit(REFUNDS_PENDING, amountMinor).credit(PSP_RECEIVABLE, amountMinor);
            case REFUND_RELEASED -> posting.debit(REFUNDS_PENDING, amountMinor).credit(MERCHANT_PAYABLE, amountMinor);
            case CHARGEBACK_WITHDRAWN ->
                posting.debit(MERCHANT_PAYABLE, amountMinor).credit(CHARGEBACKS, amountMinor);
            case CHARGEBACK_REVERSED -> posting.debit(CHARGEBACKS, amountMinor).credit(MERCHANT_PAYABLE, amountMinor);
        }
        return Optional.of(posting.build());
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

    /** How much of an open hold a capture or release closes: what it asks for, never more than is open. */
    public static long holdToClose(long requestedMinor, long openMinor) {
        if (requestedMinor <= 0 || openMinor < 0) {
            throw new IllegalArgumentException("requested " + requestedMinor + ", open " + openMinor);
        }
        return Math.min(requestedMinor, openMinor);
    }
}
