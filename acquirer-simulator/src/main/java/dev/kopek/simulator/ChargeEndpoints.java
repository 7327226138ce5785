package dev.kopek.simulator;

/** HTTP adaptors for the acquirer's public API: {@code POST /charges} and {@code GET /charges?idempotency_key=}. */
final class ChargeEndpoints {
    private final ChargeProcessor processor;
    private final Simulation simulation;

    ChargeEndpoints(Simulation simulation) {
        this.simulation = simulation;
        this.processor = new ChargeProcessor(simulation);
    }

    void register(Router router) {
        router.route("POST", "/charges", this::create)
                .route("GET", "/charges", this::lookup);
    }

    private Answer create(Request request) throws InterruptedException {
        String key = IdempotencyKey.fromHeader(request.header(IdempotencyKey.HEADER));
        // Counted before validation: charge_requests is every POST that named this key, whatever came of it.
        simulation.books().ledger().chargeRequested(key);
        // Validate before touching the key: an invalid request stores nothing and claims nothing.
        return processor.charge(key, ChargeRequest.parse(request.body()));
    }

    private Answer lookup(Request request) {
        return processor.lookup(IdempotencyKey.require(request.queryParam("idempotency_key")));
    }
}
