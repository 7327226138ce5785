package dev.kopek.psp;

import java.util.function.BiConsumer;

/**
 * Headers an adapter adds to every call to its PSP: the W3C {@code traceparent} of the request that caused the
 * call and Kopek's request id, so one payment can be followed across both systems' logs.
 */
@FunctionalInterface
public interface OutboundHeaders {

    void addTo(BiConsumer<String, String> header);

    static OutboundHeaders none() {
        return header -> {};
    }
}
