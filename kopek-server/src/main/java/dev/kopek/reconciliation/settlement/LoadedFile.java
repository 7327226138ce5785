package dev.kopek.reconciliation.settlement;

import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

/**
 * One stored version of a PSP's settlement file.
 *
 * @param loadedNow false when these exact bytes had been loaded before and the load changed nothing
 */
public record LoadedFile(
        UUID id,
        String provider,
        LocalDate date,
        int version,
        String sha256,
        int rowCount,
        Instant loadedAt,
        boolean loadedNow) {}
