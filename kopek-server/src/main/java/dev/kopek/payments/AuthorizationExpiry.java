package dev.kopek.payments;

import dev.kopek.events.MoneyMovement;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentStatus;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.platform.DatabaseFailures;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Closes authorizations past {@code capture_before}: the uncaptured rest is released, and an authorization with
 * nothing captured becomes EXPIRED. Each one in its own short transaction, guarded by its conditional UPDATE,
 * so several instances may run this at once.
 */
@Component
public class AuthorizationExpiry {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(AuthorizationExpiry.class);

    private final PaymentStore payments;
    private final PaymentEvents events;
    private final TransactionTemplate tx;

    AuthorizationExpiry(PaymentStore payments, PaymentEvents events, TransactionTemplate tx) {
        this.payments = payments;
        this.events = events;
        this.tx = tx;
    }

    public int expireDue(int limit) {
        int expired = 0;
        for (PaymentId id : payments.findExpired(limit)) {
            try {
                Boolean done = tx.execute(
                        status -> payments.expire(id).map(this::close).isPresent());
                expired += Boolean.TRUE.equals(done) ? 1 : 0;
            } catch (RuntimeException e) {
                if (DatabaseFailures.of(e).isPresent()) {
                    throw e; // the reconciler's pass ends and resumes once the database is back
                }
                log.error("closing the expired authorization of {} failed; it stays for the next pass", id, e);
            }
        }
        return expired;
    }

    private Payment close(Payment released) {
        Payment after = released.amounts().captured() == 0
                ? payments.transition(
                                released.id(), PaymentStatus.EXPIRED, new PaymentStore.Outcome(null, null, null, null))
                        .orElseThrow()
                : payments.moveToPaidStatus(released);
        events.changed(after, after.status() == PaymentStatus.EXPIRED ? "expired" : "authorization_closed");
        long releasedNow = after.amounts().released();
        if (releasedNow > 0) {
            events.moved(after.id().value(), MoneyMovement.Kind.AUTHORIZATION_RELEASED, after, releasedNow);
        }
        return after;
    }
}
