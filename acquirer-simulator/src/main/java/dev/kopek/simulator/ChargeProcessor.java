package dev.kopek.simulator;

import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The acquirer's behaviour for {@code POST /charges} and the lookup by key: the honest idempotency
 * contract plus the faults. Sleeps happen on the request's own virtual thread; nothing here blocks
 * another key.
 */
final class ChargeProcessor {
    private final Simulation simulation;

    ChargeProcessor(Simulation simulation) {
        this.simulation = simulation;
    }

    Answer charge(String key, ChargeRequest request) throws InterruptedException {
        Simulation.Books books = simulation.books();
        SimulatorConfig config = simulation.config();
        Claim claim = books.keys().claim(key, request, simulation.now(), config.keyWindowSeconds());
        return switch (claim) {
            case Claim.Replay replay -> replay.result();
            case Claim.InProgress ignored -> Replies.IN_PROGRESS;
            case Claim.Reused ignored -> Replies.KEY_REUSED;
            case Claim.Claimed claimed -> runClaimed(books, config, key, request, claimed.entry());
        };
    }

    /** Runs a request that owns the key; the key is released unless a result got stored. */
    private Answer runClaimed(Simulation.Books books, SimulatorConfig config, String key, ChargeRequest request,
            KeyEntry.InFlight claim) throws InterruptedException {
        boolean stored = false;
        try {
            sleepUniform(config.latencyMinMillis(), config.latencyMaxMillis());
            RandomFault fault = RandomFault.roll(config);
            if (fault == RandomFault.FAIL_BEFORE_CHARGE) {
                return Replies.SERVICE_UNAVAILABLE;
            }
            FaultToken token = FaultToken.of(request.paymentMethod());
            if (token.slow()) {
                sleepUniform(config.slowMinMillis(), config.slowMaxMillis());
            }
            if (token.rejection() != null) {
                return token.rejection();
            }
            ChargeRecord charge = newCharge(key, request, token);
            Answer.Reply result = new Answer.Reply(charge.movedMoney() ? 201 : 402, Json.chargeBody(charge));
            // Ledger first: whoever sees the key finished can already find its charge in the ledger.
            books.ledger().record(charge);
            books.keys().finish(key, claim, result);
            stored = true;
            return deliver(fault.delivery() != null ? fault.delivery() : token.delivery(), result, config);
        } finally {
            if (!stored) {
                books.keys().release(key, claim);
            }
        }
    }

    /** Lookup by key: the stored result whatever its status, 409 while running, else 404. */
    Answer lookup(String key) {
        Simulation.Books books = simulation.books();
        books.ledger().lookedUp(key);
        KeyEntry entry = books.keys().find(key, simulation.now(), simulation.config().keyWindowSeconds());
        return switch (entry) {
            case null -> Replies.NOT_FOUND;
            case KeyEntry.InFlight ignored -> Replies.IN_PROGRESS;
            case KeyEntry.Finished finished -> new Answer.Reply(200, finished.result().body());
        };
    }

    private ChargeRecord newCharge(String key, ChargeRequest request, FaultToken token) {
        String status = token.declineCode() == null ? ChargeRecord.SUCCEEDED : ChargeRecord.DECLINED;
        Instant now = simulation.now();
        return new ChargeRecord("ch_" + randomUuid(), key, request.amount(), request.currency(),
                request.paymentMethod(), request.reference(), status, token.declineCode(), now);
    }

    private static Answer deliver(Delivery delivery, Answer.Reply result, SimulatorConfig config)
            throws InterruptedException {
        return switch (delivery) {
            case NORMAL -> result;
            case ERROR_500 -> Replies.INTERNAL_ERROR;
            case DROP -> Answer.DROP;
            case HANG -> {
                Thread.sleep(config.timeoutHangMillis());
                yield result;
            }
        };
    }

    private static void sleepUniform(long minMillis, long maxMillis) throws InterruptedException {
        long millis = minMillis >= maxMillis ? minMillis
                // max(...) keeps the inclusive bound from overflowing at Long.MAX_VALUE.
                : ThreadLocalRandom.current().nextLong(minMillis, Math.max(maxMillis, maxMillis + 1));
        if (millis > 0) {
            Thread.sleep(millis);
        }
    }

    /** A version-4 UUID from ThreadLocalRandom: ids need to be unique, not unguessable, and this never contends. */
    private static UUID randomUuid() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long msb = (random.nextLong() & ~0xF000L) | 0x4000L;
        long lsb = (random.nextLong() & ~(0xC000L << 48)) | (0x8000L << 48);
        return new UUID(msb, lsb);
    }
}
