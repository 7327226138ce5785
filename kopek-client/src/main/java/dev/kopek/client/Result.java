package dev.kopek.client;

/**
 * The answer to a state-changing request that Kopek accepted. {@link Done}: the operation has its final answer
 * ({@code replayed} when this was Kopek's stored answer to an earlier try with the same key). {@link Pending}: the
 * PSP's outcome is not known yet (202: a payment {@code processing}, or {@code requires_action} when the customer
 * must act first; a refund {@code pending}); Kopek resolves it — wait for it ({@link KopekClient#awaitPayment},
 * {@link KopekClient#awaitRefund}), never retry with a new key.
 */
public sealed interface Result<T> {

    T value();

    record Done<T>(T value, boolean replayed) implements Result<T> {}

    record Pending<T>(T value) implements Result<T> {}
}
