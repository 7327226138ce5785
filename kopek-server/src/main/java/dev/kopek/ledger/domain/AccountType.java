package dev.kopek.ledger.domain;

import java.util.Locale;

/**
 * The kinds of account, each with its owner and the side that increases it. Platform accounts exist once per
 * currency and are touched by every payment of every merchant, which makes them the hot accounts whose balance is
 * sharded; merchant accounts exist per merchant and currency.
 */
public enum AccountType {
    /** What the PSP owes Kopek for captured money, less what it paid out for refunds. */
    PSP_RECEIVABLE(Owner.PLATFORM, Side.DEBIT),
    /** Fees Kopek earned on captures. */
    PLATFORM_REVENUE(Owner.PLATFORM, Side.CREDIT),
    /** Fees the PSP took out of what it settled: Kopek's cost, netted from the receivable (settlement file). */
    PSP_FEES(Owner.PLATFORM, Side.DEBIT),
    /** What Kopek owes the merchant: captured, less fees, refunds and chargebacks. The merchant's available balance. */
    MERCHANT_PAYABLE(Owner.MERCHANT, Side.CREDIT),
    /** Memo: authorized on customers' cards and not yet captured, as the PSP will owe it once captured. */
    HOLDS_RECEIVABLE(Owner.MERCHANT, Side.DEBIT),
    /** Memo: the same holds as the merchant will be owed once captured. The merchant's pending balance. */
    HOLDS_PAYABLE(Owner.MERCHANT, Side.CREDIT),
    /** Refunds accepted and reserved from the payable, not yet confirmed by the PSP. The merchant's held balance. */
    REFUNDS_PENDING(Owner.MERCHANT, Side.CREDIT),
    /** Chargebacks taken from the merchant's payable and owed to the PSP until it nets them in a settlement. */
    CHARGEBACKS(Owner.MERCHANT, Side.CREDIT);

    public enum Owner {
        PLATFORM,
        MERCHANT
    }

    private final Owner owner;
    private final Side normalSide;

    AccountType(Owner owner, Side normalSide) {
        this.owner = owner;
        this.normalSide = normalSide;
    }

    public Owner owner() {
        return owner;
    }

    public Side normalSide() {
        return normalSide;
    }

    public boolean isPlatform() {
        return owner == Owner.PLATFORM;
    }

    /** The balance in the account's own direction: what increases it counts positive. */
    public long balance(long debitsMinor, long creditsMinor) {
        return normalSide == Side.DEBIT
                ? Math.subtractExact(debitsMinor, creditsMinor)
                : Math.subtractExact(creditsMinor, debitsMinor);
    }

    /** As the API shows it: {@code merchant_payable}. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }
}
