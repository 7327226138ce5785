package dev.kopek.payments;

import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspProperties;
import java.time.Clock;
import java.time.Instant;
import org.springframework.stereotype.Component;

/**
 * Whether the PSP still remembers a key first sent at {@code firstSentAt}. A request sent now must also arrive
 * (within the whole budget) before the window closes, or the PSP would take it for a new operation (L6).
 */
@Component
public class KeyWindow {

    private final PspProperties properties;
    private final Clock clock;

    KeyWindow(PspProperties properties, Clock clock) {
        this.properties = properties;
        this.clock = clock;
    }

    /** @param sentTo the PSP the key went to: the merchant's own, when its account names one */
    public boolean isOpen(PaymentProvider sentTo, Instant firstSentAt) {
        Instant closes = firstSentAt.plus(sentTo.contract().keyWindow()).minus(properties.budget());
        return clock.instant().isBefore(closes);
    }

    /** Why an operation failed although its tries ended unknown: the PSP's own record under the key is empty. */
    public static String nothingAfterTries(int tries) {
        return "the PSP has no record under this key after " + tries + " tries: nothing happened";
    }

    public static final String CLOSED_REASON =
            "PSP key window closed before the outcome was known; sending it again could move money twice";
}
