package dev.kopek.psp;

import java.time.Instant;

/** Where an observed adapter reports each call it made, for the operator console's payment story. */
public interface PspCallLog {

    /**
     * One call: its operation ({@code charge}, {@code capture}, …), the provider key it carried, the outcome by
     * meaning, the PSP's reference if it gave one, a short detail (a decline code or why it is unknown).
     */
    record Call(
            String provider,
            String operation,
            String providerKey,
            String outcome,
            String pspReference,
            String detail,
            Instant startedAt,
            long durationMillis) {}

    void record(Call call);
}
