package dev.kopek.support;

import java.util.Comparator;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

/**
 * Keeps the order test classes were found in, but runs {@code LogScanTest} after all of them, so it reads the log
 * of the whole test run of this module (issue 13: a test scans the logs of a full test run for keys and card
 * numbers), not only of the classes whose names sort before it. Set for every run in junit-platform.properties.
 */
public final class LogScanRunsLast implements ClassOrderer {

    static final String LAST = "dev.kopek.observability.LogScanTest";

    @Override
    public void orderClasses(ClassOrdererContext context) {
        // A stable sort: every other class keeps its place.
        context.getClassDescriptors()
                .sort(Comparator.comparing(
                        (ClassDescriptor c) -> c.getTestClass().getName().equals(LAST)));
    }
}
