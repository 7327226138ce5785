package dev.kopek.simulator;

import java.time.Instant;
import tools.jackson.databind.node.ObjectNode;

/**
 * Captures, voids and refunds: operations on an existing charge, each under its own key scope with the
 * same contract as charges (see {@link KeyedRun}). The checks and the effect of one operation run under
 * the charge's monitor, so concurrent captures never exceed the authorization and concurrent refunds
 * never exceed what was captured.
 *
 * <p>Order of events for a fresh key: claim the key; sleep the global latency; find the charge (404
 * {@code charge_not_found}); then, under the charge's monitor: a no-effect armed fault (503 or 429) is
 * used up and refuses; the business checks may refuse (409); otherwise the next armed fault (if any) is
 * used up, and the operation happens or, for {@code declined}, is declined.
 */
final class FollowUpProcessor {
    private static final Answer.Reply CHARGE_NOT_FOUND = Json.error(404, "charge_not_found");

    /** What an operation did, to store, record and announce. */
    private record Effect(int status, ObjectNode body, MovementRecord movement, String eventType) {}

    /** The rules of one operation; both methods run under the charge's monitor. */
    private interface Step<R extends FollowUpRequest> {
        /** Why the operation is refused (a 409 code), or null. */
        String refusal(ChargeAccount account, R request, Instant now);

        /** Applies the operation, or declines it; either way the result is stored under the key. */
        Effect apply(ChargeAccount account, R request, String key, boolean declined, Instant now);
    }

    private final Simulation simulation;

    FollowUpProcessor(Simulation simulation) {
        this.simulation = simulation;
    }

    Answer capture(String key, FollowUpRequest.Capture request) throws InterruptedException {
        return run(Operation.CAPTURE, key, request, new Step<>() {
            @Override
            public String refusal(ChargeAccount account, FollowUpRequest.Capture r, Instant now) {
                return account.captureRefusal(amount(account, r, now), now);
            }

            @Override
            public Effect apply(
                    ChargeAccount account, FollowUpRequest.Capture r, String k, boolean declined, Instant now) {
                long amount = amount(account, r, now);
                String id = Ids.next("cap_");
                if (declined) {
                    return new Effect(
                            402,
                            Json.captureNode(
                                    id,
                                    account,
                                    amount,
                                    MovementRecord.DECLINED,
                                    "capture_declined",
                                    account.capturable(now),
                                    false,
                                    k,
                                    now),
                            movement(id, account, MovementRecord.CAPTURE, amount, k, MovementRecord.DECLINED, now),
                            "capture.declined");
                }
                long remaining = account.capture(amount, r.last(), now);
                return new Effect(
                        201,
                        Json.captureNode(
                                id, account, amount, MovementRecord.SUCCEEDED, null, remaining, remaining == 0, k, now),
                        movement(id, account, MovementRecord.CAPTURE, amount, k, MovementRecord.SUCCEEDED, now),
                        "capture.succeeded");
            }

            private long amount(ChargeAccount account, FollowUpRequest.Capture r, Instant now) {
                return r.amount() != null ? r.amount() : account.capturable(now);
            }
        });
    }

    Answer voidAuthorization(String key, FollowUpRequest.VoidAuthorization request) throws InterruptedException {
        return run(Operation.VOID, key, request, new Step<>() {
            @Override
            public String refusal(ChargeAccount account, FollowUpRequest.VoidAuthorization r, Instant now) {
                return account.voidRefusal(now);
            }

            @Override
            public Effect apply(
                    ChargeAccount account,
                    FollowUpRequest.VoidAuthorization r,
                    String k,
                    boolean declined,
                    Instant now) {
                String id = Ids.next("void_");
                if (declined) {
                    return new Effect(
                            402,
                            Json.voidNode(id, account, MovementRecord.DECLINED, "void_declined", 0, k, now),
                            movement(id, account, MovementRecord.VOID, 0, k, MovementRecord.DECLINED, now),
                            "void.declined");
                }
                long released = account.voidAuthorization();
                return new Effect(
                        200,
                        Json.voidNode(id, account, MovementRecord.SUCCEEDED, null, released, k, now),
                        movement(id, account, MovementRecord.VOID, released, k, MovementRecord.SUCCEEDED, now),
                        "void.succeeded");
            }
        });
    }

    Answer refund(String key, FollowUpRequest.Refund request) throws InterruptedException {
        return run(Operation.REFUND, key, request, new Step<>() {
            @Override
            public String refusal(ChargeAccount account, FollowUpRequest.Refund r, Instant now) {
                return account.refundRefusal(amount(account, r));
            }

            @Override
            public Effect apply(
                    ChargeAccount account, FollowUpRequest.Refund r, String k, boolean declined, Instant now) {
                long amount = amount(account, r);
                String id = Ids.next("re_");
                if (declined || FaultToken.of(account.paymentMethod()) == FaultToken.REFUND_DECLINED) {
                    return new Effect(
                            402,
                            Json.refundNode(id, account, amount, MovementRecord.DECLINED, "refund_declined", k, now),
                            movement(id, account, MovementRecord.REFUND, amount, k, MovementRecord.DECLINED, now),
                            "refund.declined");
                }
                account.refund(amount);
                return new Effect(
                        201,
                        Json.refundNode(id, account, amount, MovementRecord.SUCCEEDED, null, k, now),
                        movement(id, account, MovementRecord.REFUND, amount, k, MovementRecord.SUCCEEDED, now),
                        "refund.succeeded");
            }

            private long amount(ChargeAccount account, FollowUpRequest.Refund r) {
                return r.amount() != null ? r.amount() : account.refundable();
            }
        });
    }

    /** Lookup by key in an operation's scope, limited to requests about {@code chargeId} when it is non-null. */
    Answer lookup(Operation operation, String key, String chargeId) {
        return simulation
                .books()
                .scope(operation)
                .lookup(
                        key,
                        simulation.now(),
                        simulation.config().keyWindowSeconds(),
                        fingerprint -> chargeId == null
                                || fingerprint instanceof FollowUpRequest r
                                        && r.chargeId().equals(chargeId));
    }

    private <R extends FollowUpRequest> Answer run(Operation operation, String key, R request, Step<R> step)
            throws InterruptedException {
        Simulation.Books books = simulation.books();
        SimulatorConfig config = simulation.config();
        return KeyedRun.run(books.scope(operation), key, request, simulation, config, () -> {
            Pauses.uniform(config.latencyMinMillis(), config.latencyMaxMillis());
            ChargeAccount account = books.accounts().get(request.chargeId());
            if (account == null) {
                return new Outcome.Released(CHARGE_NOT_FOUND);
            }
            return account.atomically(() -> perform(books, config, operation, account, request, key, step));
        });
    }

    private <R extends FollowUpRequest> Outcome perform(
            Simulation.Books books,
            SimulatorConfig config,
            Operation operation,
            ChargeAccount account,
            R request,
            String key,
            Step<R> step) {
        Instant now = simulation.now();
        ArmedFault next = books.faults().peek(operation, account.id());
        if (next != null && next.rejection() != null) {
            books.faults().take(operation, account.id());
            return new Outcome.Released(next.rejection());
        }
        String refusal = step.refusal(account, request, now);
        if (refusal != null) {
            return new Outcome.Released(Json.error(409, refusal));
        }
        ArmedFault fault = books.faults().take(operation, account.id());
        Effect effect = step.apply(account, request, key, fault == ArmedFault.DECLINED, now);
        books.movements().record(effect.movement(), config.feeBps());
        Answer.Reply result = new Answer.Reply(effect.status(), Json.bytes(effect.body()));
        Delivery delivery = fault == null ? Delivery.NORMAL : fault.delivery();
        return new Outcome.Stored(result, delivery, () -> simulation.publish(books, effect.eventType(), effect.body()));
    }

    private static MovementRecord movement(
            String id, ChargeAccount account, String type, long amount, String key, String status, Instant now) {
        return new MovementRecord(id, account.id(), type, amount, account.currency(), key, status, now);
    }
}
