package dev.kopek.payments;

import dev.kopek.idempotency.Claim;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.platform.ConnectionWait;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The one phase 1 of every kind — payment, capture, void, refund (docs/pipeline.md): when the key is new, the kind's
 * one statement in autocommit claims it together with everything the kind writes; when the key exists (or that
 * statement wrote nothing), a short transaction decides on the key's committed state, and the kind writes only
 * under a new claim. What an existing key allows goes through the one switch, {@link AttemptRunner#afterClaim}.
 * Phase 1 is not retried after a failure (nothing has happened at the PSP; the client's retry is as safe), but it
 * waits for a connection rather than fail for want of one ({@link ConnectionWait#patiently}).
 */
@Component
class PhaseOne {

    private final IdempotencyKeys keys;
    private final TransactionTemplate tx;
    private final ConnectionWait connectionWait;
    private final AttemptRunner runner;

    PhaseOne(IdempotencyKeys keys, TransactionTemplate tx, ConnectionWait connectionWait, AttemptRunner runner) {
        this.keys = keys;
        this.tx = tx;
        this.connectionWait = connectionWait;
        this.runner = runner;
    }

    /** What differs per kind in phase 1: a small strategy over the resource {@code R} the kind creates. */
    interface Kind<R> {

        /**
         * The kind's one statement for a new key, claiming it: empty when it wrote nothing (the key exists, a racing
         * request claimed it first, or the kind's part did not fit), a refusal when nothing may be written at all.
         */
        Optional<Admitted<R>> fused(UUID newId);

        /** Inside the transaction that just claimed a new key: the kind's writes, or a refusal (rolled back). */
        Admitted<R> claimed(UUID newId);

        /** After phase 1 committed a new resource: its run (or, for a refund, its 202 and a run of its own). */
        PaymentAnswer started(R resource, ClientKey ck);

        /** The attempt of the resource an existing key names, for {@link AttemptRunner#afterClaim}. */
        Attempt attemptOf(UUID resourceId);
    }

    /** What a kind's writes in phase 1 gave: the new resource, or an answer with nothing stored. */
    sealed interface Admitted<R> extends Decided<R> {}

    record Inserted<R>(R resource) implements Admitted<R> {}

    record Refused<R>(PaymentAnswer answer) implements Admitted<R> {}

    /** What the transactional phase 1 decided: the kind's writes under a new claim, or what an existing key allows. */
    sealed interface Decided<R> {}

    record Claimed<R>(Claim claim) implements Decided<R> {}

    /** Phase 1 of a request with key {@code ck}, then what follows from it. */
    <R> PaymentAnswer admit(ClientKey ck, String fingerprint, UUID newId, Kind<R> kind) {
        // A new key, the usual case: all of phase 1 in one statement, one round trip in autocommit.
        Optional<Admitted<R>> fresh = connectionWait.patiently(() -> kind.fused(newId));
        if (fresh.isPresent()) {
            return after(fresh.get(), ck, kind);
        }
        // The key exists, or the kind's statement wrote nothing: decided in a transaction on the committed state.
        Decided<R> decided = connectionWait.patiently(() -> tx.execute(status -> {
            Claim claim = keys.claim(ck, fingerprint, newId);
            if (!(claim instanceof Claim.Owned owned) || owned.reclaimed()) {
                return new Claimed<R>(claim);
            }
            Admitted<R> admitted = kind.claimed(newId);
            if (admitted instanceof Refused<R>) {
                status.setRollbackOnly();
            }
            return admitted;
        }));
        return switch (decided) {
            case Claimed<R> claimed -> runner.afterClaim(claimed.claim(), ck, kind::attemptOf);
            case Admitted<R> admitted -> after(admitted, ck, kind);
        };
    }

    private static <R> PaymentAnswer after(Admitted<R> admitted, ClientKey ck, Kind<R> kind) {
        return switch (admitted) {
            case Inserted<R> inserted -> kind.started(inserted.resource(), ck);
            case Refused<R> refused -> refused.answer();
        };
    }
}
