package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.events.MoneyMovement;
import dev.kopek.ledger.Ledger;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentStatus;
import dev.kopek.payments.jdbc.PaymentMoves;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.platform.DatabaseFailures;
import dev.kopek.platform.Db;
import dev.kopek.platform.SqlPart;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Closes authorizations past {@code capture_before}: the uncaptured rest is released, and an authorization with
 * nothing captured becomes EXPIRED. Each one in its own short transaction of two statements: the conditional UPDATE
 * that releases the rest (so several instances may run this at once, and the payment's row is locked from then on),
 * then one statement that moves the status, writes the event and posts the release, as parts of it.
 */
@Component
public class AuthorizationExpiry {

    private static final Logger log = LoggerFactory.getLogger(AuthorizationExpiry.class);

    /** The CTE of the closing statement that makes its parts write: one row, the release that was made. */
    private static final String EXPIRING = "expiring";

    private final PaymentStore payments;
    private final PaymentMoves moves;
    private final PaymentEvents events;
    private final EventStatements eventStatements;
    private final Ledger ledger;
    private final TransactionTemplate tx;
    private final Clock clock;

    AuthorizationExpiry(
            PaymentStore payments,
            PaymentMoves moves,
            PaymentEvents events,
            EventStatements eventStatements,
            Ledger ledger,
            TransactionTemplate tx,
            Clock clock) {
        this.payments = payments;
        this.moves = moves;
        this.events = events;
        this.eventStatements = eventStatements;
        this.ledger = ledger;
        this.tx = tx;
        this.clock = clock;
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

    /**
     * {@code released} is the row as the release left it, locked: it becomes EXPIRED when nothing was captured, and
     * otherwise the status its amounts call for, one more version either way; the release of the rest is posted
     * against the payment's open hold, which the statement reads after that lock.
     */
    private Payment close(Payment released) {
        boolean nothingCaptured = released.amounts().captured() == 0;
        PaymentStatus next = nothingCaptured ? PaymentStatus.EXPIRED : released.paidStatus();
        Payment after = released.changed(next, Db.micros(clock.instant()));
        BusinessEvent event =
                events.event(after, nothingCaptured ? "expired" : "authorization_closed", PaymentJson.render(after));
        List<SqlPart> parts = new ArrayList<>();
        parts.add(moves.statusPart(released, after, EXPIRING));
        parts.add(eventStatements.append(event, PaymentMoves.PAID));
        long releasedNow = after.amounts().released();
        if (releasedNow > 0) {
            MoneyMovement release =
                    events.movement(after.id().value(), MoneyMovement.Kind.AUTHORIZATION_RELEASED, after, releasedNow);
            parts.add(ledger.computedPart(List.of(release), PaymentMoves.PAID));
        }
        if (!payments.writeAfter(EXPIRING, OutcomeRecorder.joined(parts), PaymentMoves.PAID)) {
            throw new IllegalStateException(released.id() + " changed under its row lock");
        }
        events.recorded(event);
        return after;
    }
}
