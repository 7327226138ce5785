package dev.kopek.simulator;

/**
 * HTTP adaptors for charges: {@code POST /charges}, {@code GET /charges?idempotency_key=} and
 * {@code GET /charges/{id}}.
 */
final class ChargeEndpoints {
    private final ChargeProcessor processor;
    private final Simulation simulation;

    ChargeEndpoints(Simulation simulation) {
        this.simulation = simulation;
        this.processor = new ChargeProcessor(simulation);
    }

    void register(Router router) {
        router.route("POST", "/charges", this::create)
                .route("GET", "/charges", this::lookup)
                .route("GET", "/charges/{id}", this::show);
    }

    private Answer create(Request request) throws InterruptedException {
        String key = IdempotencyKey.fromHeader(request.header(IdempotencyKey.HEADER));
        // Counted before validation: charge_requests is every POST that named this key, whatever came of it.
        simulation.books().scope(Operation.CHARGE).counters().requested(key);
        // Validate before touching the key: an invalid request stores nothing and claims nothing.
        return processor.charge(key, ChargeRequest.parse(request.body()));
    }

    private Answer lookup(Request request) {
        return processor.lookup(IdempotencyKey.require(request.queryParam("idempotency_key")));
    }

    private Answer show(Request request) {
        ChargeAccount account = simulation.books().account(request.pathParam("id"));
        return Json.ok(Json.chargeStateNode(account.view(simulation.now())));
    }
}
