package dev.kopek.disputes;

import dev.kopek.payments.NotificationResult;
import dev.kopek.payments.PaymentBalances;
import dev.kopek.payments.domain.Payment;
import dev.kopek.psp.NotificationSource;
import dev.kopek.psp.PaymentProviders;
import dev.kopek.psp.PspNotification;
import java.util.List;
import java.util.Optional;

/** The payment a dispute or inquiry notification is about, or why there is none to act on. */
sealed interface HeldPayment {

    record Found(Payment payment) implements HeldPayment {}

    record None(NotificationResult result) implements HeldPayment {}

    /**
     * The payment the notification's charge names, held by the account that sent it: a PSP reference is unique
     * within one account only (L11). Unknown yet: UNMATCHED; named but held by another account: FOREIGN.
     */
    static HeldPayment of(
            PspNotification n, NotificationSource source, PaymentBalances balances, PaymentProviders psps) {
        List<Payment> named = balances.findByPspReference(n.chargeId());
        if (named.isEmpty()) {
            return new None(NotificationResult.UNMATCHED);
        }
        Optional<Payment> held = named.stream()
                .filter(p -> psps.speaksFor(source, p.merchant(), p.pspAccount()))
                .findFirst();
        return held.<HeldPayment>map(Found::new).orElseGet(() -> new None(NotificationResult.FOREIGN));
    }
}
