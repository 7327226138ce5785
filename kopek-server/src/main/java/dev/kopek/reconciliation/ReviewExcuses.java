package dev.kopek.reconciliation;

import dev.kopek.money.TimeOrderedIds;
import dev.kopek.platform.Db;
import dev.kopek.platform.InvariantCheck.Excuse;
import dev.kopek.platform.InvariantCheck.Finding;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The review queue's part in the production audit (issue 26 §2): which findings a person already has in hand (an
 * open review item of the subject, or the exposure item a chargeback over refunds opens), and the review item a
 * violation becomes (subject {@code invariant}), so that the queue stays the one place where a person finds what
 * the machine must not decide. The audit's own items never excuse anything.
 */
@Service
public class ReviewExcuses {

    private static final Logger log = LoggerFactory.getLogger(ReviewExcuses.class);

    private final JdbcClient jdbc;
    private final Clock clock;

    ReviewExcuses(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** The findings no review item excuses, in their order. */
    public List<Finding> unexcused(List<Finding> findings) {
        Set<UUID> exposed = exposedPayments(ids(findings, Excuse.EXPOSURE_REVIEW, Finding::payment));
        Set<UUID> inHand = openSubjects(findings);
        List<Finding> left = new ArrayList<>();
        for (Finding f : findings) {
            boolean excused = switch (f.excuse()) {
                case NONE -> false;
                case EXPOSURE_REVIEW -> exposed.contains(f.payment());
                case OPEN_REVIEW -> inHand.contains(f.subjectId()) || inHand.contains(f.payment());
            };
            if (!excused) {
                left.add(f);
            }
        }
        return left;
    }

    /**
     * Opens the review item of a violation (at most one open per violation); returns whether it opened one.
     *
     * @param violation the violation's id, the item's subject id
     */
    public boolean open(UUID violation, UUID merchant, UUID payment, String reason) {
        int opened = jdbc.sql("""
                INSERT INTO manual_reviews (id, merchant_id, payment_id, reason, status, created_at, subject, subject_id)
                VALUES (:id, :merchant, :payment, :reason, 'OPEN', :now, 'invariant', :violation)
                ON CONFLICT (subject, subject_id) WHERE status = 'OPEN' DO NOTHING
                """)
                .param("id", TimeOrderedIds.next(clock))
                .param("merchant", merchant)
                .param("payment", payment)
                .param("reason", reason.length() <= 500 ? reason : reason.substring(0, 499) + "…")
                .param("now", Db.at(clock.instant()))
                .param("violation", violation)
                .update();
        if (opened == 1) {
            log.warn("invariant violation {} queued for manual review", violation);
        }
        return opened == 1;
    }

    private Set<UUID> exposedPayments(List<UUID> payments) {
        if (payments.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.sql("""
                        SELECT DISTINCT payment_id FROM manual_reviews
                         WHERE subject = 'exposure' AND payment_id = ANY (CAST(:payments AS uuid[]))
                        """)
                .param("payments", payments.toArray(UUID[]::new))
                .query(UUID.class)
                .list());
    }

    /** Subjects and payments an open item (not the audit's own) is about, among those the findings name. */
    private Set<UUID> openSubjects(List<Finding> findings) {
        List<UUID> ids = new ArrayList<>(ids(findings, Excuse.OPEN_REVIEW, Finding::subjectId));
        ids.addAll(ids(findings, Excuse.OPEN_REVIEW, Finding::payment));
        if (ids.isEmpty()) {
            return Set.of();
        }
        Set<UUID> inHand = new HashSet<>();
        jdbc.sql("""
                SELECT subject_id, payment_id FROM manual_reviews
                 WHERE status = 'OPEN' AND subject <> 'invariant'
                   AND (subject_id = ANY (CAST(:ids AS uuid[])) OR payment_id = ANY (CAST(:ids AS uuid[])))
                """).param("ids", ids.toArray(UUID[]::new)).query(rs -> {
            inHand.add(rs.getObject("subject_id", UUID.class));
            UUID payment = rs.getObject("payment_id", UUID.class);
            if (payment != null) {
                inHand.add(payment);
            }
        });
        return inHand;
    }

    private static List<UUID> ids(List<Finding> findings, Excuse excuse, Function<Finding, UUID> id) {
        return findings.stream()
                .filter(f -> f.excuse() == excuse)
                .map(id)
                .filter(Objects::nonNull)
                .distinct()
                .toList();
    }
}
