package dev.kopek.disputes;

import dev.kopek.money.MerchantId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.psp.NotificationSource;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The PSP account a dispute or inquiry was reported by, as its rows store it (V171): a PSP's dispute id is unique only
 * within one account. {@code pspAccount} is null for Kopek's configured account (as {@code payments.psp_account}); for
 * a merchant's own account it is the provider, and {@code merchant} is that merchant.
 */
record DisputeAccount(String pspAccount, UUID merchant) {

    /** The account that holds {@code payment}, so the one whose disputes are about it. */
    static DisputeAccount of(Payment payment) {
        return payment.pspAccount() == null
                ? new DisputeAccount(null, null)
                : new DisputeAccount(payment.pspAccount(), payment.merchant().value());
    }

    /** The account a verified notification speaks for. */
    static DisputeAccount of(NotificationSource source) {
        return source.merchant()
                .map(MerchantId::value)
                .map(merchant -> new DisputeAccount(source.provider(), merchant))
                .orElseGet(() -> new DisputeAccount(null, null));
    }

    /** That a row of disputes or dispute_inquiries was reported by the account {@link #bind} names. */
    static final String SAME_ACCOUNT = "psp_account IS NOT DISTINCT FROM CAST(:pspAccount AS varchar)"
            + " AND account_merchant_id IS NOT DISTINCT FROM CAST(:accountMerchant AS uuid)";

    /** The parameters of {@link #SAME_ACCOUNT}. */
    JdbcClient.StatementSpec bind(JdbcClient.StatementSpec statement) {
        return statement.param("pspAccount", pspAccount).param("accountMerchant", merchant);
    }
}
