package dev.kopek.platform;

/**
 * The rows of one table that hold secrets sealed by the {@link SecretBox} (webhook signing secrets, merchants' PSP
 * credentials), as {@link SecretResealing} seals them again under the current key after a rotation.
 */
public interface SealedRows {

    /** What the rows hold, for the log: e.g. "webhook endpoint secrets". */
    String what();

    /**
     * Seals again under the current key, in the caller's transaction, up to {@code limit} rows that need it and that
     * the box can open, locked with {@code SKIP LOCKED} so instances starting together share the work; returns how
     * many (0 when none is left). The secrets themselves do not change.
     */
    int resealBatch(int limit);

    /** Rows sealed by a key the box does not hold: nothing here can open them. */
    long countUnopenable();
}
