package dev.kopek.payments.audit;

import dev.kopek.platform.InvariantCheck.Finding;
import dev.kopek.platform.InvariantCheck.Slice;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/** The slice every payments check answers: the rows it read, the last one's id, what it found. */
final class Audit {

    private Audit() {}

    static <T> Slice slice(List<T> rows, Function<T, UUID> id, List<Finding> findings) {
        return new Slice(
                rows.size(), rows.isEmpty() ? null : id.apply(rows.getLast()).toString(), findings);
    }
}
