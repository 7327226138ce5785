package dev.kopek.payments.audit;

import dev.kopek.money.MerchantId;
import dev.kopek.psp.PaymentProviders;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * When an undecided payment or operation has been waiting too long: longer than its PSP's key window (past which
 * the reconciler parks it for a person, L6) and an hour's margin for the reconciler's passes and a restarting fleet.
 */
@Component
class KeyWindows {

    static final Duration MARGIN = Duration.ofHours(1);

    private final PaymentProviders providers;
    private final Clock clock;

    KeyWindows(PaymentProviders providers, Clock clock) {
        this.providers = providers;
        this.clock = clock;
    }

    /** Whether something created at {@code createdAt} through that account is past its window and the margin. */
    boolean overdue(UUID merchant, String pspAccount, Instant createdAt) {
        return createdAt.plus(window(merchant, pspAccount)).plus(MARGIN).isBefore(clock.instant());
    }

    private Duration window(UUID merchant, String pspAccount) {
        try {
            return providers
                    .forPayment(new MerchantId(merchant), pspAccount)
                    .contract()
                    .keyWindow();
        } catch (IllegalStateException accountGone) {
            // The merchant no longer has the account the payment went through; its window is unknown here, and the
            // configured PSP's is the one Kopek would fall back on for anything new.
            return providers.configured().contract().keyWindow();
        }
    }
}
