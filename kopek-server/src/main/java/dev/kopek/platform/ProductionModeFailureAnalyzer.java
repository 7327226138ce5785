package dev.kopek.platform;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** One line per reason production mode refused to start, instead of a stack trace. */
class ProductionModeFailureAnalyzer extends AbstractFailureAnalyzer<ProductionMode.ProductionModeViolation> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ProductionMode.ProductionModeViolation cause) {
        return new FailureAnalysis(
                cause.getMessage(), "Configure each of these, or unset KOPEK_PROFILE to run the" + " demo.", cause);
    }
}
