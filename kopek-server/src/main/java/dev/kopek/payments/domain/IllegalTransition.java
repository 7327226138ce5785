package dev.kopek.payments.domain;

/** A move its state machine's table does not allow: refused, never written. */
public final class IllegalTransition extends IllegalStateException {

    public IllegalTransition(Object id, Enum<?> from, Enum<?> to) {
        super(id + ": no transition " + from + " -> " + to);
    }
}
