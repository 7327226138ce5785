package dev.kopek.chaos;

import dev.kopek.chaos.Evidence.Answer;
import dev.kopek.chaos.Evidence.ClientAnswers;
import dev.kopek.chaos.Evidence.LedgerTotals;
import dev.kopek.chaos.Evidence.Operation;
import dev.kopek.chaos.Evidence.OutboxEvent;
import dev.kopek.chaos.Evidence.Payment;
import dev.kopek.chaos.Evidence.PspCharge;
import dev.kopek.chaos.Evidence.PspMovement;
import dev.kopek.chaos.Evidence.Review;
import dev.kopek.chaos.Evidence.TopicEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Judges one run's {@link Evidence} against the laws. Pure: no I/O, so each check is shown to fail on data that
 * breaks it ({@code AuditorTest}). Only an item parked for a person (an open manual review) excuses a payment
 * from the money checks; nothing excuses a double charge, an unbalanced transaction or a lost event.
 */
final class Auditor {

    static final String DOUBLE_CHARGES = "double_charges";
    static final String UNKNOWN_PSP_MOVEMENTS = "psp_movements_unknown_to_kopek";
    static final String AMOUNT_MISMATCHES = "kopek_amounts_differ_from_psp";
    static final String REFUNDED_OVER_CAPTURED = "refunded_over_captured";
    static final String UNBALANCED_LEDGER = "ledger_transactions_not_zero";
    static final String LEDGER_VS_PSP = "ledger_differs_from_psp";
    static final String STUCK = "stuck_non_final_outside_review";
    static final String EVENTS_MISSING = "state_changes_without_event";
    static final String EVENTS_OUT_OF_ORDER = "events_out_of_order";
    static final String REPLAY_MISMATCHES = "replays_differ_from_first_answer";

    static final List<String> CHECKS = List.of(
            DOUBLE_CHARGES,
            UNKNOWN_PSP_MOVEMENTS,
            AMOUNT_MISMATCHES,
            REFUNDED_OVER_CAPTURED,
            UNBALANCED_LEDGER,
            LEDGER_VS_PSP,
            STUCK,
            EVENTS_MISSING,
            EVENTS_OUT_OF_ORDER,
            REPLAY_MISMATCHES);

    private static final int EXAMPLES = 5;
    private static final Set<String> PAID =
            Set.of("CAPTURED", "PARTIALLY_REFUNDED", "REFUNDED", "DISPUTED", "CHARGED_BACK");
    private static final Set<String> NOT_AUTHORIZED = Set.of("PENDING", "UNKNOWN", "DECLINED", "FAILED");
    private static final Set<String> NON_FINAL = Set.of("PENDING", "UNKNOWN");

    /** The outcome: per check, how many violations and a few examples; plus figures that are not violations. */
    record Report(Map<String, List<String>> violations, long duplicateEvents, long openReviews) {

        long total() {
            return violations.values().stream().mapToLong(List::size).sum();
        }

        int count(String check) {
            return violations.get(check).size();
        }

        List<String> examples(String check) {
            return violations.get(check).stream().limit(EXAMPLES).toList();
        }
    }

    private final Evidence e;
    private final Map<String, List<String>> found = new LinkedHashMap<>();
    private final Set<UUID> paymentsInReview = new HashSet<>();
    private final Set<UUID> subjectsInReview = new HashSet<>();
    private final Map<String, Payment> paymentByProviderKey;
    private final Map<String, Payment> paymentByCharge;
    private final Map<String, PspCharge> chargeById;
    private final Map<String, PspCharge> chargeByKey;
    private final Map<String, Operation> operationByProviderKey;
    private final Map<String, List<PspMovement>> movementsByCharge;
    private long duplicateEvents;

    private Auditor(Evidence evidence) {
        this.e = evidence;
        CHECKS.forEach(check -> found.put(check, new ArrayList<>()));
        for (Review r : e.reviews()) {
            if (r.open()) {
                paymentsInReview.add(r.paymentId());
                subjectsInReview.add(r.subjectId());
            }
        }
        paymentByProviderKey = index(e.payments(), Payment::providerKey);
        paymentByCharge = index(e.payments(), Payment::pspReference);
        chargeById = index(e.pspCharges(), PspCharge::id);
        chargeByKey = index(e.pspCharges(), PspCharge::key);
        operationByProviderKey = index(e.operations(), Operation::providerKey);
        movementsByCharge = e.pspMovements().stream()
                .filter(m -> m.chargeId() != null)
                .collect(Collectors.groupingBy(PspMovement::chargeId));
    }

    static Report audit(Evidence evidence) {
        Auditor auditor = new Auditor(evidence);
        auditor.doubleCharges();
        auditor.unknownMovements();
        auditor.amounts();
        auditor.refundedOverCaptured();
        auditor.ledger();
        auditor.stuck();
        auditor.events();
        auditor.replays();
        long open = evidence.reviews().stream().filter(Review::open).count();
        return new Report(auditor.found, auditor.duplicateEvents, open);
    }

    private void violation(String check, String example) {
        found.get(check).add(example);
    }

    /** One key moves money at most once per kind, and one intent (reference) is charged at most once. */
    private void doubleCharges() {
        Map<String, Long> perKey = e.pspMovements().stream()
                .filter(PspMovement::succeeded)
                .filter(m -> m.key() != null)
                .collect(Collectors.groupingBy(m -> m.type() + " key=" + m.key(), Collectors.counting()));
        perKey.forEach((what, n) -> {
            if (n > 1) {
                violation(DOUBLE_CHARGES, what + " moved money " + n + " times");
            }
        });
        Map<String, List<String>> perIntent = new HashMap<>();
        for (PspMovement m : e.pspMovements()) {
            boolean charge = m.type().equals("charge") || m.type().equals("authorization");
            PspCharge c = chargeById.get(m.chargeId());
            if (charge && m.succeeded() && c != null && c.reference() != null) {
                perIntent.computeIfAbsent(c.reference(), r -> new ArrayList<>()).add(m.id());
            }
        }
        perIntent.forEach((reference, charges) -> {
            if (charges.size() > 1) {
                violation(DOUBLE_CHARGES, "intent " + reference + " charged " + charges.size() + " times: " + charges);
            }
        });
    }

    /** Every money movement at the PSP is one Kopek recorded as done, or sits in an open review. */
    private void unknownMovements() {
        Map<String, Evidence.Dispute> disputes = index(e.disputes(), Evidence.Dispute::pspDisputeId);
        for (PspMovement m : e.pspMovements()) {
            if (!m.succeeded()) {
                continue;
            }
            boolean known = switch (m.type()) {
                case "charge" -> paymentHas(m.key(), p -> PAID.contains(p.status()) && p.captured() > 0);
                case "authorization" -> paymentHas(m.key(), p -> !NOT_AUTHORIZED.contains(p.status()));
                case "capture", "void", "refund" -> {
                    Operation op = operationByProviderKey.get(m.key());
                    yield op != null
                            && op.kind().equals(m.type())
                            && op.status().equals("SUCCEEDED");
                }
                case "chargeback" -> disputes.containsKey(m.id());
                case "chargeback_reversal" ->
                    disputes.containsKey(m.id())
                            && disputes.get(m.id()).status().equals("WON");
                default -> false;
            };
            if (!known && !inReview(paymentOfCharge(m.chargeId()))) {
                violation(
                        UNKNOWN_PSP_MOVEMENTS,
                        m.type() + " " + m.id() + " of " + m.chargeId() + " amount " + m.amount() + " key=" + m.key()
                                + " is not recorded as done by Kopek");
            }
        }
    }

    private boolean paymentHas(String providerKey, java.util.function.Predicate<Payment> test) {
        Payment p = paymentByProviderKey.get(providerKey);
        return p != null && test.test(p);
    }

    /** Kopek's captured, refunded and disputed amounts of each payment equal the PSP's movements. */
    private void amounts() {
        for (Payment p : e.payments()) {
            if (inReview(p)) {
                continue;
            }
            PspTotals psp = pspTotals(p);
            if (p.captured() != psp.captured || p.refunded() != psp.refunded || p.disputed() != psp.disputed) {
                violation(
                        AMOUNT_MISMATCHES,
                        "payment " + p.id() + " (" + p.status() + ") Kopek captured/refunded/"
                                + "disputed " + p.captured() + "/" + p.refunded() + "/" + p.disputed() + " but PSP "
                                + psp.captured + "/" + psp.refunded + "/" + psp.disputed + " (charge " + psp.chargeId
                                + ")");
            }
        }
    }

    private void refundedOverCaptured() {
        movementsByCharge.forEach((charge, movements) -> {
            long captured = sum(movements, "charge") + sum(movements, "capture");
            long refunded = sum(movements, "refund");
            if (refunded > captured) {
                violation(
                        REFUNDED_OVER_CAPTURED,
                        "PSP charge " + charge + " refunded " + refunded + " > captured " + captured);
            }
        });
        for (Payment p : e.payments()) {
            if (p.refunded() + p.refundPending() > p.captured()) {
                violation(
                        REFUNDED_OVER_CAPTURED,
                        "payment " + p.id() + " refunded " + p.refunded() + " + pending " + p.refundPending()
                                + " > captured " + p.captured());
            }
        }
    }

    private void ledger() {
        e.unbalancedLedgerTransactions().forEach(t -> violation(UNBALANCED_LEDGER, t));
        Map<UUID, LedgerTotals> totals = index(e.ledgerTotals(), LedgerTotals::paymentId);
        for (Payment p : e.payments()) {
            if (inReview(p)) {
                continue;
            }
            PspTotals psp = pspTotals(p);
            LedgerTotals l = totals.getOrDefault(p.id(), new LedgerTotals(p.id(), 0, 0, 0));
            if (l.captured() != psp.captured || l.refunded() != psp.refunded || l.chargedBack() != psp.disputed) {
                violation(
                        LEDGER_VS_PSP,
                        "payment " + p.id() + " ledger captured/refunded/charged back "
                                + l.captured() + "/" + l.refunded() + "/" + l.chargedBack() + " but PSP " + psp.captured
                                + "/" + psp.refunded + "/" + psp.disputed + " (charge " + psp.chargeId + ")");
            }
        }
    }

    /** After the faults stop and recovery ran, nothing is left undecided except what a person must decide. */
    private void stuck() {
        for (Payment p : e.payments()) {
            if (NON_FINAL.contains(p.status()) && !subjectsInReview.contains(p.id())) {
                violation(STUCK, "payment " + p.id() + " still " + p.status());
            } else if ((p.refundPending() > 0 || p.capturePending() > 0) && !inReview(p)) {
                violation(
                        STUCK,
                        "payment " + p.id() + " still reserves refund " + p.refundPending() + " capture "
                                + p.capturePending());
            }
        }
        for (Operation op : e.operations()) {
            if (NON_FINAL.contains(op.status()) && !subjectsInReview.contains(op.id())) {
                violation(STUCK, op.kind() + " " + op.id() + " of payment " + op.paymentId() + " still " + op.status());
            }
        }
        for (Evidence.StuckKey k : e.stuckKeys()) {
            if (!subjectsInReview.contains(k.resourceId()) && !paymentsInReview.contains(k.resourceId())) {
                violation(
                        STUCK,
                        k.operation() + " key " + k.key() + " still " + k.status() + " (resource " + k.resourceId()
                                + ")");
            }
        }
    }

    /**
     * Every recorded state change reached the topic, a resource's events arrive in sequence order (first copies),
     * and the last event of each payment and refund shows its final status.
     */
    private void events() {
        Map<String, List<TopicEvent>> byResource = e.topic().stream()
                .sorted(Comparator.comparingInt(TopicEvent::partition).thenComparingLong(TopicEvent::offset))
                .collect(Collectors.groupingBy(TopicEvent::publicId, LinkedHashMap::new, Collectors.toList()));
        Set<String> seen = new HashSet<>();
        Map<String, TopicEvent> last = new HashMap<>();
        byResource.forEach((resource, events) -> {
            long previous = Long.MIN_VALUE;
            for (TopicEvent t : events) {
                if (!seen.add(t.eventId())) {
                    duplicateEvents++;
                    continue;
                }
                if (t.sequence() <= previous) {
                    violation(
                            EVENTS_OUT_OF_ORDER,
                            resource + ": " + t.eventId() + " sequence " + t.sequence()
                                    + " after sequence " + previous + " (partition " + t.partition() + " offset "
                                    + t.offset() + ")");
                }
                previous = Math.max(previous, t.sequence());
                last.merge(resource, t, (a, b) -> b.sequence() > a.sequence() ? b : a);
            }
        });
        for (OutboxEvent o : e.outbox()) {
            if (!seen.contains(o.eventId())) {
                violation(
                        EVENTS_MISSING,
                        o.resourceType() + " " + o.publicId() + " sequence " + o.sequence() + " (" + o.eventId()
                                + ") never reached the topic");
            }
        }
        for (Payment p : e.payments()) {
            expectLastStatus(last, PublicIds.payment(p.id()), apiStatus(p.status()));
        }
        for (Operation op : e.operations()) {
            if (op.kind().equals("refund")) {
                expectLastStatus(
                        last,
                        PublicIds.refund(op.id()),
                        op.status().equals("UNKNOWN") ? "pending" : op.status().toLowerCase(Locale.ROOT));
            }
        }
    }

    private void expectLastStatus(Map<String, TopicEvent> last, String publicId, String status) {
        TopicEvent t = last.get(publicId);
        if (t == null) {
            violation(EVENTS_MISSING, publicId + " (" + status + ") has no event on the topic");
        } else if (!Objects.equals(t.status(), status)) {
            violation(
                    EVENTS_MISSING,
                    publicId + " is " + status + " but its last event (sequence " + t.sequence() + ") says "
                            + t.status());
        }
    }

    private static String apiStatus(String status) {
        return NON_FINAL.contains(status) ? "processing" : status.toLowerCase(Locale.ROOT);
    }

    /** Every answer marked as a replay, and every final first answer, of one key are the same bytes. */
    private void replays() {
        for (ClientAnswers key : e.answers()) {
            Answer first = null;
            for (Answer a : key.answers()) {
                if (!a.replayed() && !finalFirstAnswer(key.operation(), a.status())) {
                    continue;
                }
                if (first == null) {
                    first = a;
                } else if (first.status() != a.status() || !first.body().equals(a.body())) {
                    violation(
                            REPLAY_MISMATCHES,
                            key.operation() + " key " + key.key() + ": first " + first.status()
                                    + " " + abbreviate(first.body()) + " then " + (a.replayed() ? "replay " : "")
                                    + a.status()
                                    + " " + abbreviate(a.body()));
                    break;
                }
            }
        }
    }

    private static boolean finalFirstAnswer(String operation, int status) {
        return operation.equals("refund") ? status == 202 : status == 200 || status == 201;
    }

    private static String abbreviate(String body) {
        return body.length() <= 240 ? body : body.substring(0, 240) + "…";
    }

    private record PspTotals(String chargeId, long captured, long refunded, long disputed) {}

    private PspTotals pspTotals(Payment p) {
        String chargeId = p.pspReference();
        if (chargeId == null && chargeByKey.containsKey(p.providerKey())) {
            chargeId = chargeByKey.get(p.providerKey()).id();
        }
        List<PspMovement> movements =
                chargeId == null ? List.of() : movementsByCharge.getOrDefault(chargeId, List.of());
        return new PspTotals(
                chargeId,
                sum(movements, "charge") + sum(movements, "capture"),
                sum(movements, "refund"),
                sum(movements, "chargeback") - sum(movements, "chargeback_reversal"));
    }

    private static long sum(List<PspMovement> movements, String type) {
        return movements.stream()
                .filter(m -> m.succeeded() && m.type().equals(type))
                .mapToLong(PspMovement::amount)
                .sum();
    }

    private UUID paymentOfCharge(String chargeId) {
        PspCharge c = chargeById.get(chargeId);
        Payment p = c == null ? null : paymentByProviderKey.get(c.key());
        if (p == null && chargeId != null) {
            p = paymentByCharge.get(chargeId);
        }
        return p == null ? null : p.id();
    }

    private boolean inReview(Payment p) {
        return inReview(p.id());
    }

    private boolean inReview(UUID paymentId) {
        return paymentId != null && paymentsInReview.contains(paymentId);
    }

    private static <K, V> Map<K, V> index(List<V> values, Function<V, K> key) {
        Map<K, V> map = new HashMap<>();
        for (V v : values) {
            K k = key.apply(v);
            if (k != null) {
                map.putIfAbsent(k, v);
            }
        }
        return map;
    }
}
