package dev.kopek.simulator;

import java.time.Instant;

/**
 * The acquirer's behaviour for {@code POST /charges} and the lookup by key: the honest idempotency
 * contract (see {@link KeyedRun}) plus the faults. Sleeps happen on the request's own virtual thread;
 * nothing here blocks another key.
 */
final class ChargeProcessor {
    private static final Answer.Reply RETRY_REFUSED = Json.error(422, "retry_refused");

    private final Simulation simulation;

    ChargeProcessor(Simulation simulation) {
        this.simulation = simulation;
    }

    Answer charge(String key, ChargeRequest request) throws InterruptedException {
        Simulation.Books books = simulation.books();
        SimulatorConfig config = simulation.config();
        if (FaultToken.of(request.paymentMethod()) == FaultToken.RESET_THEN_REFUSED
                && lookup(key) instanceof Answer.Reply stored
                && stored.status() == 200) {
            return RETRY_REFUSED;
        }
        return KeyedRun.run(
                books.scope(Operation.CHARGE),
                key,
                request,
                simulation,
                config,
                () -> perform(books, config, key, request));
    }

    /** The work of a fresh charge: latency, the random fault, then the token. */
    private Outcome perform(Simulation.Books books, SimulatorConfig config, String key, ChargeRequest request)
            throws InterruptedException {
        Pauses.uniform(config.latencyMinMillis(), config.latencyMaxMillis());
        RandomFault fault = RandomFault.roll(config);
        if (fault == RandomFault.FAIL_BEFORE_CHARGE) {
            return new Outcome.Released(Replies.SERVICE_UNAVAILABLE);
        }
        FaultToken token = FaultToken.of(request.paymentMethod());
        if (token.slow()) {
            Pauses.uniform(config.slowMinMillis(), config.slowMaxMillis());
        }
        if (token.rejection() != null) {
            return new Outcome.Released(token.rejection());
        }
        Delivery delivery = fault.delivery() != null ? fault.delivery() : token.delivery();
        ChargeAccount account =
                new ChargeAccount(Ids.next("ch_"), key, request, simulation.now(), config.authorizationTtlSeconds());
        if (token.asynchronous()) {
            books.accounts().put(account.id(), account);
            Answer.Reply processing = new Answer.Reply(202, account.lookupBody());
            return new Outcome.Stored(
                    processing,
                    account::lookupBody,
                    delivery,
                    () -> decideLater(
                            books,
                            account,
                            token.declineCode(),
                            config.webhooks().delayMillis()));
        }
        ChargeAccount.Decided decided = decide(books, account, token.declineCode(), config);
        Answer.Reply result = new Answer.Reply(decided.declined() ? 402 : 201, decided.bytes());
        return new Outcome.Stored(result, delivery, () -> announce(books, decided));
    }

    /**
     * Decides the charge and records it everywhere the oracle looks: the account (so captures and lookups
     * see it), the charge ledger and the movement ledger.
     */
    private ChargeAccount.Decided decide(
            Simulation.Books books, ChargeAccount account, String declineCode, SimulatorConfig config) {
        ChargeAccount.Decided decided = account.decide(declineCode);
        ChargeRecord record = decided.record();
        books.accounts().put(account.id(), account);
        books.ledger().record(record);
        String type = account.authorization() ? MovementRecord.AUTHORIZATION : MovementRecord.CHARGE;
        String status = decided.declined() ? MovementRecord.DECLINED : MovementRecord.SUCCEEDED;
        Instant now = simulation.now();
        books.movements()
                .record(
                        new MovementRecord(
                                account.id(),
                                account.id(),
                                type,
                                record.amount(),
                                record.currency(),
                                record.idempotencyKey(),
                                status,
                                now),
                        config.feeBps());
        return decided;
    }

    /** charge.succeeded, charge.authorized or charge.declined, with the result body as data. */
    private void announce(Simulation.Books books, ChargeAccount.Decided decided) {
        simulation.publish(books, "charge." + decided.record().status(), decided.body());
    }

    /** pm_webhook_only: the outcome comes webhook_delay_ms later, announced only by webhook. */
    private void decideLater(Simulation.Books books, ChargeAccount account, String declineCode, long delayMillis) {
        simulation.background(() -> {
            try {
                Thread.sleep(delayMillis);
            } catch (InterruptedException e) {
                // The simulator is closing; the charge stays processing, as a crashed acquirer leaves it.
                Thread.currentThread().interrupt();
                return;
            }
            announce(books, decide(books, account, declineCode, simulation.config()));
        });
    }

    /** Lookup by key: the stored result whatever its status, 409 while running, else 404. */
    Answer lookup(String key) {
        return simulation
                .books()
                .scope(Operation.CHARGE)
                .lookup(key, simulation.now(), simulation.config().keyWindowSeconds(), fingerprint -> true);
    }
}
