package dev.kopek.reconciliation.settlement;

import dev.kopek.money.MerchantId;
import dev.kopek.psp.PaymentProvider;
import java.util.Optional;

/**
 * A PSP account whose settlement Kopek reconciles: Kopek's configured one (no merchant; payments.psp_account is null),
 * or one merchant's own account at its PSP (payments of that merchant whose psp_account names that PSP). Its
 * settlement files and breaks are kept under {@link #provider}: the PSP's name for Kopek's account, {@code
 * <psp>:<merchant id>} for a merchant's, so two accounts at one PSP never share a file, a date lock or a break.
 */
record SettlementAccount(String provider, PaymentProvider psp, Optional<MerchantId> merchant) {

    static SettlementAccount configured(PaymentProvider psp) {
        return new SettlementAccount(psp.name(), psp, Optional.empty());
    }

    static SettlementAccount merchants(MerchantId merchant, PaymentProvider psp) {
        return new SettlementAccount(psp.name() + ":" + merchant, psp, Optional.of(merchant));
    }

    /** The payments.psp_account of this account's payments: null for Kopek's configured account. */
    String pspAccount() {
        return merchant.isPresent() ? psp.name() : null;
    }
}
