package dev.kopek.client;

/**
 * What {@link KopekClient#awaitPayment} saw. {@link Known}: the PSP's outcome is known (captured, authorized, declined,
 * failed, …). {@link ActionRequired}: the PSP waits for the customer (3-D Secure); the payment is live — never pay
 * again for its reference — send the customer to {@link ActionRequired#nextAction()}, then await it again: Kopek
 * settles it from the PSP's event or its own lookup. {@link StillProcessing}: the time ran out; Kopek keeps resolving
 * it, look again later.
 */
public sealed interface Awaited {

    Payment payment();

    record Known(Payment payment) implements Awaited {}

    record ActionRequired(Payment payment, NextAction nextAction) implements Awaited {}

    record StillProcessing(Payment payment) implements Awaited {}
}
