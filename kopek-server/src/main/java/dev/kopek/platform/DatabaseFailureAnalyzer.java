package dev.kopek.platform;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a database start-up failure into one clear sentence instead of a wall of stack traces. */
class DatabaseFailureAnalyzer extends AbstractFailureAnalyzer<DatabaseUnavailableException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, DatabaseUnavailableException cause) {
        return new FailureAnalysis(
                cause.getMessage(),
                "Check KOPEK_DB_URL, KOPEK_DB_USER and KOPEK_DB_PASSWORD, or unset KOPEK_DB_URL to use the "
                        + "embedded PostgreSQL under KOPEK_DATA_DIR.",
                cause);
    }
}
