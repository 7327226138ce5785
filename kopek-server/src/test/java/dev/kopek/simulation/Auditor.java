package dev.kopek.simulation;

import dev.kopek.simulation.World.DisputeRow;
import dev.kopek.simulation.World.EventRow;
import dev.kopek.simulation.World.LedgerEntry;
import dev.kopek.simulation.World.OperationRow;
import dev.kopek.simulation.World.PaymentRow;
import dev.kopek.simulation.World.PspCharge;
import dev.kopek.simulation.World.PspMovement;
import dev.kopek.simulation.World.RefundRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The auditor of every law (issue 10 §3): judges a quiesced {@link World} against the PSP's own record and the
 * laws of docs/design.md. Pure: it reads only the world it is given, so {@code AuditorTest} can show that each check
 * fails on data that breaks it. Money Kopek cannot account for is allowed only where a person has it in an open
 * review item.
 */
final class Auditor {

    /** One check of the auditor, with the law it guards. */
    enum Check {
        INTENT_CHARGED_AT_MOST_ONCE("L2"),
        PSP_MOVEMENT_KNOWN("L5/L6: every PSP money movement is known to Kopek, or in an open review"),
        KOPEK_MOVEMENT_AT_PSP("L5: every movement Kopek records happened at the PSP"),
        AMOUNT_LIMITS("L7: captured <= authorized, refunded <= captured"),
        FIGURES_EQUAL_PSP("L7: Kopek's figures per payment equal the PSP's"),
        OVERLAP_REVIEWED("§2: disputed + refunded above captured is recorded and goes to a person"),
        LEDGER_BALANCED("L8: each journal transaction sums to zero per currency"),
        JOURNAL_EQUALS_PSP("L8: each payment's journal equals its PSP movements"),
        HOLD_RELEASED("L8: an authorization past its expiry holds nothing"),
        EVENTS_WITHOUT_GAPS("L9: every state change has its event, in order, without gaps"),
        OPERATION_OUTCOME_ANNOUNCED("L9: a declined or unknown capture, void or refund has its event"),
        FINAL_STAYS_FINAL("L10: final states stay final"),
        MERCHANT_ISOLATION("L11: merchants see and touch only their own objects"),
        NOTHING_IN_LIMBO("L5/L6: after quiescence nothing is pending or unknown unless a person has it"),
        REVIEW_HAS_A_REASON("L6: an open review item is about something still undecided"),
        SUCCEEDED_IS_CLEAN("a succeeded operation carries no failure reason"),
        API_CONTRACT("what the driver saw over HTTP");

        final String law;

        Check(String law) {
            this.law = law;
        }
    }

    record Violation(Check check, String message) {
        @Override
        public String toString() {
            return check + " [" + check.law + "]: " + message;
        }
    }

    /** Final for payments and refunds. Not {@code refunded}: a chargeback can still come (issue 10 §2). */
    static final Set<String> FINAL_STATUSES =
            Set.of("voided", "expired", "declined", "failed", "charged_back", "succeeded");

    private static final Set<String> UNDECIDED = Set.of("PENDING", "UNKNOWN");
    private static final Set<String> UNPAID = Set.of("PENDING", "UNKNOWN", "FAILED", "DECLINED");

    private final World w;
    private final List<Violation> found = new ArrayList<>();
    private final Set<UUID> reviewedPayments;
    private final Set<UUID> reviewedSubjects;
    private final Map<String, PaymentRow> paymentByCharge;

    private Auditor(World world) {
        this.w = world;
        this.reviewedPayments =
                world.openReviews().stream().map(World.ReviewRow::payment).collect(Collectors.toSet());
        this.reviewedSubjects =
                world.openReviews().stream().map(World.ReviewRow::subjectId).collect(Collectors.toSet());
        this.paymentByCharge = new HashMap<>();
        Map<String, PaymentRow> byKey = index(world.payments(), PaymentRow::providerKey);
        for (PspCharge c : world.pspCharges()) {
            PaymentRow p = byKey.get(c.providerKey());
            if (p != null) {
                paymentByCharge.put(c.id(), p);
            }
        }
        for (PaymentRow p : world.payments()) {
            if (p.pspReference() != null) {
                paymentByCharge.putIfAbsent(p.pspReference(), p);
            }
        }
    }

    static List<Violation> audit(World world) {
        Auditor a = new Auditor(world);
        a.intentChargedAtMostOnce();
        a.pspChargesKnown();
        a.pspMovementsKnown();
        a.kopekMovementsAtPsp();
        a.amountLimits();
        a.figuresEqualPsp();
        a.overlapReviewed();
        a.ledgerBalanced();
        a.journalEqualsPsp();
        a.holdsReleased();
        a.eventsWithoutGaps();
        a.operationOutcomesAnnounced();
        a.finalStaysFinal();
        a.merchantIsolation();
        a.nothingInLimbo();
        a.reviewsHaveAReason();
        a.succeededIsClean();
        world.driverFindings().forEach(f -> a.fail(Check.API_CONTRACT, f.law() + ": " + f.message()));
        return List.copyOf(a.found);
    }

    private void fail(Check check, String message) {
        found.add(new Violation(check, message));
    }

    private boolean reviewed(PaymentRow p) {
        return p != null && reviewedPayments.contains(p.id());
    }

    /**
     * Money moved for an intent: a charge captured when made, or an authorization with a capture. A voided or
     * expired authorization frees the intent (docs/design.md, L2: a new attempt is then allowed) and moved nothing.
     */
    private void intentChargedAtMostOnce() {
        Set<String> captured = w.pspMovements().stream()
                .filter(m -> m.type().equals("capture") && isSucceeded(m.status()))
                .map(PspMovement::chargeId)
                .collect(Collectors.toSet());
        w.pspCharges().stream()
                .filter(c -> c.status().equals("succeeded")
                        || (c.status().equals("authorized") && captured.contains(c.id())))
                .collect(Collectors.groupingBy(PspCharge::reference, Collectors.counting()))
                .forEach((reference, n) -> {
                    if (n > 1) {
                        fail(Check.INTENT_CHARGED_AT_MOST_ONCE, "intent " + reference + " charged " + n + " times");
                    }
                });
    }

    private void pspChargesKnown() {
        Map<String, PaymentRow> byKey = index(w.payments(), PaymentRow::providerKey);
        for (PspCharge c : w.pspCharges()) {
            if (!isSucceeded(c.status())) {
                continue;
            }
            PaymentRow p = byKey.get(c.providerKey());
            if (p == null) {
                fail(Check.PSP_MOVEMENT_KNOWN, "PSP charge " + c.id() + " (" + c.amount() + ") has no payment");
            } else if (!reviewed(p)
                    && (UNPAID.contains(p.status())
                            || !c.id().equals(p.pspReference())
                            || p.authorized() != c.amount())) {
                fail(
                        Check.PSP_MOVEMENT_KNOWN,
                        "PSP charge " + c.id() + " of " + c.amount() + " but payment " + p.id() + " is " + p.status()
                                + " authorized " + p.authorized() + " psp " + p.pspReference());
            }
        }
    }

    private void pspMovementsKnown() {
        Map<String, OperationRow> ops = index(w.operations(), OperationRow::providerKey);
        Map<String, RefundRow> refunds = index(w.refunds(), RefundRow::providerKey);
        Map<String, DisputeRow> disputes = index(w.disputes(), DisputeRow::pspDisputeId);
        for (PspMovement m : w.pspMovements()) {
            if (!isSucceeded(m.status())) {
                continue;
            }
            String problem = switch (m.type()) {
                case "capture", "void" -> {
                    OperationRow op = ops.get(m.providerKey());
                    yield op != null
                                    && op.status().equals("SUCCEEDED")
                                    && (m.type().equals("void") || op.amount() == m.amount())
                            ? null
                            : "operation " + describe(op);
                }
                case "refund" -> {
                    RefundRow r = refunds.get(m.providerKey());
                    yield r != null && r.status().equals("SUCCEEDED") && r.amount() == m.amount()
                            ? null
                            : "refund " + describe(r);
                }
                case "chargeback" -> {
                    DisputeRow d = disputes.get(m.id());
                    yield d != null && d.amount() == m.amount() ? null : "dispute " + describe(d);
                }
                case "chargeback_reversal" -> {
                    DisputeRow d = disputes.get(m.id());
                    yield d != null && d.status().equals("WON") ? null : "dispute " + describe(d);
                }
                default -> null;
            };
            if (problem != null && !reviewed(paymentByCharge.get(m.chargeId()))) {
                fail(
                        Check.PSP_MOVEMENT_KNOWN,
                        "PSP " + m.type() + " " + m.id() + " of " + m.amount() + " on " + m.chargeId()
                                + " is not recorded: Kopek has " + problem);
            }
        }
    }

    private void kopekMovementsAtPsp() {
        Set<String> pspKeys = w.pspMovements().stream()
                .filter(m -> isSucceeded(m.status()))
                .map(m -> m.type() + " " + m.providerKey())
                .collect(Collectors.toSet());
        Set<String> pspDisputes = w.pspMovements().stream()
                .filter(m -> m.type().equals("chargeback"))
                .map(PspMovement::id)
                .collect(Collectors.toSet());
        for (OperationRow op : w.operations()) {
            if (op.status().equals("SUCCEEDED")
                    && !pspKeys.contains(op.kind().toLowerCase(Locale.ROOT) + " " + op.providerKey())) {
                fail(
                        Check.KOPEK_MOVEMENT_AT_PSP,
                        "Kopek's " + op.kind() + " " + op.id() + " succeeded, the PSP has none");
            }
        }
        for (RefundRow r : w.refunds()) {
            if (r.status().equals("SUCCEEDED") && !pspKeys.contains("refund " + r.providerKey())) {
                fail(Check.KOPEK_MOVEMENT_AT_PSP, "Kopek's refund " + r.id() + " succeeded, the PSP has none");
            }
        }
        for (DisputeRow d : w.disputes()) {
            if (!pspDisputes.contains(d.pspDisputeId())) {
                fail(Check.KOPEK_MOVEMENT_AT_PSP, "Kopek's dispute " + d.pspDisputeId() + " is unknown at the PSP");
            }
        }
    }

    private void amountLimits() {
        for (PaymentRow p : w.payments()) {
            boolean negative = p.authorized() < 0
                    || p.captured() < 0
                    || p.capturePending() < 0
                    || p.released() < 0
                    || p.refunded() < 0
                    || p.refundPending() < 0
                    || p.disputed() < 0;
            if (negative
                    || p.captured() + p.capturePending() + p.released() > p.authorized()
                    || p.authorized() > p.amount()
                    || p.refunded() + p.refundPending() > p.captured()) {
                fail(Check.AMOUNT_LIMITS, "payment " + p.id() + " " + amounts(p));
            }
        }
    }

    /** Per charge at the PSP: authorized, captured, refunded, disputed (chargebacks less reversals). */
    private record PspFigures(long authorized, long captured, long refunded, long disputed) {}

    private Map<String, PspFigures> pspFigures() {
        Map<String, long[]> sums = new HashMap<>();
        for (PspMovement m : w.pspMovements()) {
            if (!isSucceeded(m.status())) {
                continue;
            }
            long[] s = sums.computeIfAbsent(m.chargeId(), id -> new long[4]);
            switch (m.type()) {
                case "charge" -> {
                    s[0] += m.amount();
                    s[1] += m.amount();
                }
                case "authorization" -> s[0] += m.amount();
                case "capture" -> s[1] += m.amount();
                case "refund" -> s[2] += m.amount();
                case "chargeback" -> s[3] += m.amount();
                case "chargeback_reversal" -> s[3] -= m.amount();
                default -> {}
            }
        }
        Map<String, PspFigures> figures = new HashMap<>();
        sums.forEach((id, s) -> figures.put(id, new PspFigures(s[0], s[1], s[2], s[3])));
        return figures;
    }

    private void figuresEqualPsp() {
        Map<String, PspFigures> psp = pspFigures();
        for (PaymentRow p : w.payments()) {
            PspFigures f = p.pspReference() == null ? null : psp.get(p.pspReference());
            if (f == null || reviewed(p)) {
                continue;
            }
            if (f.authorized() != p.authorized()
                    || f.captured() != p.captured()
                    || f.refunded() != p.refunded()
                    || f.disputed() != p.disputed()) {
                fail(
                        Check.FIGURES_EQUAL_PSP,
                        "payment " + p.id() + " (" + p.status() + ") " + amounts(p) + " but the PSP has " + f);
            }
        }
    }

    private void overlapReviewed() {
        Set<UUID> exposed = w.reviews().stream()
                .filter(r -> r.subject().equals("exposure"))
                .map(World.ReviewRow::payment)
                .collect(Collectors.toSet());
        for (PaymentRow p : w.payments()) {
            if (p.disputed() + p.refunded() > p.captured() && !exposed.contains(p.id())) {
                fail(
                        Check.OVERLAP_REVIEWED,
                        "payment " + p.id() + " " + amounts(p) + ": disputed and refunded"
                                + " exceed captured and no person was told");
            }
        }
    }

    private void ledgerBalanced() {
        Map<String, Long> perTransaction = new HashMap<>();
        Map<String, Long> perCurrency = new HashMap<>();
        for (LedgerEntry e : w.ledger()) {
            long signed = e.side().equals("debit") ? e.amount() : -e.amount();
            perTransaction.merge(e.transaction() + " " + e.currency(), signed, Long::sum);
            perCurrency.merge(e.currency(), signed, Long::sum);
        }
        perTransaction.forEach((tx, net) -> {
            if (net != 0) {
                fail(Check.LEDGER_BALANCED, "journal transaction " + tx + " is off by " + net);
            }
        });
        perCurrency.forEach((currency, net) -> {
            if (net != 0) {
                fail(Check.LEDGER_BALANCED, "the journal in " + currency + " is off by " + net);
            }
        });
    }

    /** Net of one account type over a payment's journal, on its normal side (debit for receivables). */
    private static long net(List<LedgerEntry> entries, String accountType, String normalSide) {
        return entries.stream()
                .filter(e -> e.accountType().equals(accountType))
                .mapToLong(e -> e.side().equals(normalSide) ? e.amount() : -e.amount())
                .sum();
    }

    private void journalEqualsPsp() {
        Map<UUID, List<LedgerEntry>> byPayment = w.ledger().stream()
                .filter(e -> e.payment() != null)
                .collect(Collectors.groupingBy(LedgerEntry::payment));
        Map<String, PspFigures> psp = pspFigures();
        for (PaymentRow p : w.payments()) {
            List<LedgerEntry> entries = byPayment.getOrDefault(p.id(), List.of());
            PspFigures f = p.pspReference() == null ? null : psp.get(p.pspReference());
            if (f == null) {
                f = new PspFigures(0, 0, 0, 0);
            }
            long receivable = net(entries, "PSP_RECEIVABLE", "debit");
            long chargebacks = net(entries, "CHARGEBACKS", "credit");
            long refundsPending = net(entries, "REFUNDS_PENDING", "credit");
            if (!reviewed(p) && (receivable != f.captured() - f.refunded() || chargebacks != f.disputed())) {
                fail(
                        Check.JOURNAL_EQUALS_PSP,
                        "payment " + p.id() + " journal: PSP receivable " + receivable
                                + ", chargebacks " + chargebacks + "; the PSP moved captured " + f.captured()
                                + " refunded "
                                + f.refunded() + " disputed " + f.disputed());
            }
            if (refundsPending != p.refundPending()) {
                fail(
                        Check.JOURNAL_EQUALS_PSP,
                        "payment " + p.id() + " journal holds " + refundsPending + " as refunds pending, the payment "
                                + p.refundPending());
            }
            long hold = net(entries, "HOLDS_RECEIVABLE", "debit");
            long capturable = p.authorized() - p.captured() - p.released();
            if (!UNDECIDED.contains(p.status()) && p.capturePending() == 0 && hold != capturable) {
                fail(
                        Check.JOURNAL_EQUALS_PSP,
                        "payment " + p.id() + " (" + p.status() + ") journal holds " + hold + " but " + capturable
                                + " is still capturable");
            }
        }
    }

    private void holdsReleased() {
        for (PaymentRow p : w.payments()) {
            long capturable = p.authorized() - p.captured() - p.capturePending() - p.released();
            if (p.captureBefore() != null
                    && w.now().isAfter(p.captureBefore())
                    && !UNDECIDED.contains(p.status())
                    && capturable != 0
                    && !reviewed(p)) {
                fail(
                        Check.HOLD_RELEASED,
                        "payment " + p.id() + " (" + p.status() + ") still holds " + capturable
                                + " after its authorization expired at " + p.captureBefore());
            }
        }
    }

    private record Resource(String kind, UUID id, UUID merchant, long version) {}

    private void eventsWithoutGaps() {
        List<Resource> resources = new ArrayList<>();
        w.payments().forEach(p -> resources.add(new Resource("payment", p.id(), p.merchant(), p.version())));
        w.refunds().forEach(r -> resources.add(new Resource("refund", r.id(), r.merchant(), r.version())));
        w.disputes().forEach(d -> resources.add(new Resource("dispute", d.id(), d.merchant(), d.version())));
        Map<UUID, List<EventRow>> byResource = w.events().stream().collect(Collectors.groupingBy(EventRow::resourceId));
        for (Resource r : resources) {
            List<EventRow> events = byResource.getOrDefault(r.id(), List.of()).stream()
                    .sorted(Comparator.comparingLong(EventRow::logPosition))
                    .toList();
            String where = r.kind() + " " + r.id() + " (version " + r.version() + ")";
            if (events.isEmpty()) {
                fail(Check.EVENTS_WITHOUT_GAPS, where + " has no event at all");
                continue;
            }
            List<Long> sequences = events.stream().map(EventRow::sequence).toList();
            long first = sequences.getFirst();
            boolean gapless = first <= 1;
            for (int i = 1; i < sequences.size(); i++) {
                gapless &= sequences.get(i) == sequences.get(i - 1) + 1;
            }
            if (!gapless || sequences.getLast() != r.version()) {
                fail(
                        Check.EVENTS_WITHOUT_GAPS,
                        where + " has event sequences " + sequences + " ("
                                + events.stream().map(EventRow::type).toList() + ")");
            }
            events.stream()
                    .filter(e -> !e.merchant().equals(r.merchant()))
                    .findFirst()
                    .ifPresent(e -> fail(
                            Check.MERCHANT_ISOLATION,
                            "event " + e.type() + " of " + where + " belongs to merchant " + e.merchant()
                                    + ", the resource to " + r.merchant()));
        }
    }

    private void operationOutcomesAnnounced() {
        for (OperationRow op : w.operations()) {
            if (op.status().equals("FAILED") || op.status().equals("UNKNOWN")) {
                announced(op.kind(), op.id(), op.status());
            }
        }
        for (RefundRow r : w.refunds()) {
            if (r.status().equals("FAILED") || r.status().equals("UNKNOWN")) {
                announced("refund", r.id(), r.status());
            }
        }
    }

    private void announced(String kind, UUID id, String status) {
        String plain = id.toString().replace("-", "");
        boolean seen = w.events().stream()
                .anyMatch(e -> e.resourceId().equals(id)
                        || (e.envelope() != null
                                && (e.envelope().contains(plain) || e.envelope().contains(id.toString()))));
        if (!seen) {
            fail(Check.OPERATION_OUTCOME_ANNOUNCED, kind + " " + id + " is " + status + " and no event says so");
        }
    }

    private void finalStaysFinal() {
        Map<String, String> finalOf = new HashMap<>();
        for (World.Observation o : w.observations()) {
            String status = o.status().toLowerCase(Locale.ROOT);
            String before = finalOf.get(o.objectId());
            if (before != null && !before.equals(status)) {
                fail(Check.FINAL_STAYS_FINAL, o.objectId() + " was " + before + " and then " + status);
            }
            if (FINAL_STATUSES.contains(status)) {
                finalOf.putIfAbsent(o.objectId(), status);
            }
        }
    }

    private void merchantIsolation() {
        Map<UUID, PaymentRow> payments = index(w.payments(), PaymentRow::id);
        Function<UUID, UUID> owner =
                id -> payments.containsKey(id) ? payments.get(id).merchant() : null;
        w.operations().stream()
                .filter(o -> !Objects.equals(owner.apply(o.payment()), o.merchant()))
                .forEach(o -> fail(
                        Check.MERCHANT_ISOLATION, o.kind() + " " + o.id() + " has another merchant than its payment"));
        w.refunds().stream()
                .filter(r -> !Objects.equals(owner.apply(r.payment()), r.merchant()))
                .forEach(r ->
                        fail(Check.MERCHANT_ISOLATION, "refund " + r.id() + " has another merchant than its payment"));
        w.disputes().stream()
                .filter(d -> !Objects.equals(owner.apply(d.payment()), d.merchant()))
                .forEach(d ->
                        fail(Check.MERCHANT_ISOLATION, "dispute " + d.id() + " has another merchant than its payment"));
    }

    private void nothingInLimbo() {
        Map<UUID, PaymentRow> payments = index(w.payments(), PaymentRow::id);
        for (PaymentRow p : w.payments()) {
            if (UNDECIDED.contains(p.status()) && !reviewed(p)) {
                fail(Check.NOTHING_IN_LIMBO, "payment " + p.id() + " is still " + p.status());
            }
        }
        for (OperationRow op : w.operations()) {
            if (UNDECIDED.contains(op.status())
                    && !reviewedSubjects.contains(op.id())
                    && !reviewed(payments.get(op.payment()))) {
                fail(Check.NOTHING_IN_LIMBO, op.kind() + " " + op.id() + " is still " + op.status());
            }
        }
        for (RefundRow r : w.refunds()) {
            if (UNDECIDED.contains(r.status())
                    && !reviewedSubjects.contains(r.id())
                    && !reviewed(payments.get(r.payment()))) {
                fail(Check.NOTHING_IN_LIMBO, "refund " + r.id() + " is still " + r.status());
            }
        }
        for (World.NotificationRow n : w.notifications()) {
            if (n.outcome() == null || n.outcome().equals("unmatched")) {
                fail(
                        Check.NOTHING_IN_LIMBO,
                        "PSP notification " + n.eventId() + " (" + n.type() + " about " + n.pspReference()
                                + ") is still " + (n.outcome() == null ? "waiting" : n.outcome()));
            }
        }
    }

    private void reviewsHaveAReason() {
        Map<UUID, String> statusOf = new HashMap<>();
        w.payments().forEach(p -> statusOf.put(p.id(), p.status()));
        w.operations().forEach(o -> statusOf.put(o.id(), o.status()));
        w.refunds().forEach(r -> statusOf.put(r.id(), r.status()));
        Set<String> undecidedKinds = Set.of("payment", "capture", "void", "refund");
        for (World.ReviewRow review : w.openReviews()) {
            String status = undecidedKinds.contains(review.subject()) ? statusOf.get(review.subjectId()) : null;
            if (status != null && !UNDECIDED.contains(status)) {
                fail(
                        Check.REVIEW_HAS_A_REASON,
                        "review " + review.id() + " of " + review.subject() + " " + review.subjectId()
                                + " is open although it is " + status);
            }
        }
    }

    private void succeededIsClean() {
        w.refunds().stream()
                .filter(r -> r.status().equals("SUCCEEDED") && r.failureReason() != null)
                .forEach(r -> fail(
                        Check.SUCCEEDED_IS_CLEAN,
                        "refund " + r.id() + " succeeded with failure_reason '" + r.failureReason() + "'"));
        w.operations().stream()
                .filter(o -> o.status().equals("SUCCEEDED") && o.failureReason() != null)
                .forEach(o -> fail(
                        Check.SUCCEEDED_IS_CLEAN,
                        o.kind() + " " + o.id() + " succeeded with failure_reason '" + o.failureReason() + "'"));
    }

    private static boolean isSucceeded(String status) {
        return status.equals("succeeded") || status.equals("authorized");
    }

    private static String amounts(PaymentRow p) {
        return "amount " + p.amount() + " authorized " + p.authorized() + " captured " + p.captured()
                + " capture_pending " + p.capturePending() + " released " + p.released() + " refunded "
                + p.refunded() + " refund_pending " + p.refundPending() + " disputed " + p.disputed();
    }

    private static String describe(Object row) {
        return row == null ? "nothing" : row.toString();
    }

    private static <T, K> Map<K, T> index(List<T> rows, Function<T, K> key) {
        Map<K, T> map = new HashMap<>();
        Set<K> seen = new HashSet<>();
        for (T row : rows) {
            K k = key.apply(row);
            if (k != null && seen.add(k)) {
                map.put(k, row);
            }
        }
        return map;
    }
}
