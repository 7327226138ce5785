package dev.kopek.psp;

import java.time.LocalDate;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Feeds every charge, capture, void and refund outcome of an adapter to its {@link PspCircuit}. Lookups are not
 * counted: "not found yet" is a normal answer, and recovery must keep asking while the circuit is open.
 */
public final class CircuitBreakingPaymentProvider implements PaymentProvider {

    private final PaymentProvider adapter;
    private final PspCircuit circuit;

    public CircuitBreakingPaymentProvider(PaymentProvider adapter, PspCircuit circuit) {
        this.adapter = adapter;
        this.circuit = circuit;
    }

    private ChargeOutcome recorded(Supplier<ChargeOutcome> call) {
        long start = System.nanoTime();
        ChargeOutcome outcome = call.get();
        circuit.record(outcome, System.nanoTime() - start);
        return outcome;
    }

    @Override
    public String name() {
        return adapter.name();
    }

    @Override
    public IdempotencyContract contract() {
        return adapter.contract();
    }

    @Override
    public boolean capturesInParts() {
        return adapter.capturesInParts();
    }

    @Override
    public ChargeOutcome execute(PspRequest request) {
        return recorded(() -> adapter.execute(request));
    }

    @Override
    public ChargeOutcome executeOnce(PspRequest request) {
        return recorded(() -> adapter.executeOnce(request));
    }

    @Override
    public LookupResult lookup(PspRequest request) {
        return adapter.lookup(request);
    }

    @Override
    public String notificationSignatureHeader() {
        return adapter.notificationSignatureHeader();
    }

    @Override
    public NotificationCheck verifyNotification(String signatureHeader, String body) {
        return adapter.verifyNotification(signatureHeader, body);
    }

    @Override
    public PspNotification readVerifiedNotification(String body) {
        return adapter.readVerifiedNotification(body);
    }

    @Override
    public SettlementReport settlementReport(LocalDate date) {
        return adapter.settlementReport(date);
    }

    @Override
    public Optional<String> providerKeyOf(String pspReference) {
        return adapter.providerKeyOf(pspReference);
    }
}
