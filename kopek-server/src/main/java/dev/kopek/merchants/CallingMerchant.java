package dev.kopek.merchants;

import dev.kopek.money.MerchantId;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/**
 * The merchant a request was authenticated as, for code that runs between authentication and the handler (the
 * rate limiter). Empty for routes of another audience: admin, ops, PSP notifications, public ones.
 */
public final class CallingMerchant {

    /** The request attribute merchant authentication sets; nothing else writes it. */
    public static final String ATTRIBUTE = "kopek.merchant";

    private CallingMerchant() {}

    public static Optional<MerchantId> of(HttpServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof MerchantId merchant
                ? Optional.of(merchant)
                : Optional.empty();
    }
}
