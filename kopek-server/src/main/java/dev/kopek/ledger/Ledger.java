package dev.kopek.ledger;

import dev.kopek.events.MoneyMovement;
import dev.kopek.ledger.domain.AccountType;
import dev.kopek.ledger.domain.FeeRule;
import dev.kopek.ledger.domain.Line;
import dev.kopek.ledger.domain.Posting;
import dev.kopek.ledger.domain.PostingRules;
import dev.kopek.ledger.jdbc.AccountStore;
import dev.kopek.ledger.jdbc.JournalStore;
import dev.kopek.money.MerchantId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.platform.SqlPart;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Posts money movements and reversals. A posting is written in the caller's transaction (it is part of the state
 * change it accounts for) and is idempotent by its source: {@code (sourceId, kind)} is unique in the journal.
 *
 * <p>A movement recorded by a statement is posted as a part of that statement; the rest through {@link #post}.
 * Locks, always in this order: the payment's row (taken by its writer before a capture or a release is posted: the
 * open hold is read after it), then the journal's unique source key. Balances are projected after commit (V162,
 * {@link LedgerProjector}).
 */
@Service
public class Ledger {

    private static final Logger log = LoggerFactory.getLogger(Ledger.class);
    private static final int MAX_REASON = 500;

    private final JournalStore journal;
    private final AccountStore accounts;
    private final Clock clock;
    private final MeterRegistry meters;

    Ledger(JournalStore journal, AccountStore accounts, Clock clock, MeterRegistry meters) {
        this.journal = journal;
        this.accounts = accounts;
        this.clock = clock;
        this.meters = meters;
    }

    /**
     * Posts one movement inside the caller's transaction; there must be one. Only for the movements the payments
     * module still publishes to the ledger's listener, none of which depends on a hold or a fee: a refund's
     * reservation on phase 1's transactional path, a chargeback and its reversal. A movement that a statement records
     * is posted as a part of it ({@link #openingPart}, {@link #computedPart}, {@link #outcomePart}).
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public PostResult post(MoneyMovement movement) {
        String currency = movement.amount().currency().code();
        long amount = movement.amount().minor();
        switch (movement.kind()) {
            case CHARGEBACK_REVERSED -> requireWithdrawal(movement);
            case REFUND_RESERVED, CHARGEBACK_WITHDRAWN -> {
                // posted as they are
            }
            case AUTHORIZATION_HELD, CAPTURED, AUTHORIZATION_RELEASED, REFUND_SUCCEEDED, REFUND_RELEASED ->
                throw new IllegalArgumentException(
                        movement.kind() + " is posted as a part of the statement that records it, not published");
        }
        Posting posting =
                PostingRules.forMovement(movement.kind(), amount, 0, 0).orElseThrow();
        LedgerTransaction tx = header(movement);
        List<JournalStore.NewLine> lines = resolve(posting, movement.merchant(), currency);
        if (!journal.insert(tx, lines)) {
            LedgerTransaction existing = journal.findBySource(
                            movement.sourceId(), movement.kind().name())
                    .orElseThrow(() -> new IllegalStateException("posting of " + movement + " conflicted but is gone"));
            requireSameFacts(movement, existing);
            count(movement.kind().name(), "already_posted");
            return new PostResult.AlreadyPosted(existing);
        }
        count(movement.kind().name(), "posted");
        log.debug(
                "posted {} of {} for payment {} as {}",
                movement.kind(),
                movement.amount(),
                movement.paymentId(),
                tx.publicId());
        return new PostResult.Posted(written(tx, posting, lines));
    }

    /**
     * A movement that opens something (a hold, a refund's reservation, a chargeback's withdrawal: posted as it is,
     * nothing read first) as common table expressions of the caller's statement, posted once when the CTE
     * {@code source} has a row: for a change made by one statement in autocommit, whose posting must commit with it
     * (L8). Idempotent by its source like every posting. A movement that depends on what was posted before (a
     * capture, a release, a refund's or a chargeback's outcome) goes through {@link #post}.
     */
    public SqlPart openingPart(MoneyMovement movement, String source) {
        if (movement.kind() != MoneyMovement.Kind.AUTHORIZATION_HELD
                && movement.kind() != MoneyMovement.Kind.REFUND_RESERVED
                && movement.kind() != MoneyMovement.Kind.CHARGEBACK_WITHDRAWN) {
            throw new IllegalArgumentException(
                    movement.kind() + " depends on earlier postings; post it in a transaction");
        }
        Posting posting = PostingRules.forMovement(
                        movement.kind(), movement.amount().minor(), 0, 0)
                .orElseThrow();
        return journal.insertPart(
                header(movement),
                resolve(
                        posting,
                        movement.merchant(),
                        movement.amount().currency().code()),
                source);
    }

    /**
     * Movements that depend on what was posted before — a capture (its fee, the part of the payment's open hold it
     * closes) and a release of that hold — as common table expressions of the caller's statement, each posted once
     * when the CTE {@code source} has a row, with what it depends on computed by the statement itself
     * ({@link JournalStore#inputsPart}: nothing is read first) and its lines from the one posting table
     * ({@link PostingRules#legs}). In order: a release after a capture in the same statement closes what the capture
     * left open. The caller must have locked the payment's row in an earlier statement of its transaction, as every
     * writer of a capture or a release does. Idempotent by its source like every posting.
     */
    public SqlPart computedPart(List<MoneyMovement> movements, String source) {
        return computedPart(movements, source, true);
    }

    /**
     * A capture at once, which never had a hold to close: {@link #computedPart} with only the fee computed by the
     * statement.
     */
    public SqlPart capturedAtOncePart(MoneyMovement captured, String source) {
        return computedPart(List.of(captured), source, false);
    }

    private SqlPart computedPart(List<MoneyMovement> movements, String source, boolean held) {
        MoneyMovement first = movements.getFirst();
        String currency = first.amount().currency().code();
        SqlPart inputs = held
                ? JournalStore.inputsPart(first.merchant(), first.paymentId(), currency)
                : JournalStore.feeInputsPart(first.merchant(), currency);
        StringBuilder sql = new StringBuilder(inputs.sql());
        Map<String, Object> params = new HashMap<>(inputs.params());
        String closedBefore = "0";
        for (int i = 0; i < movements.size(); i++) {
            MoneyMovement movement = movements.get(i);
            if (!movement.paymentId().equals(first.paymentId())
                    || !movement.merchant().equals(first.merchant())
                    || !movement.amount().currency().equals(first.amount().currency())) {
                throw new IllegalArgumentException("one statement posts the movements of one payment: " + movements);
            }
            if (movement.kind() != MoneyMovement.Kind.CAPTURED
                    && movement.kind() != MoneyMovement.Kind.AUTHORIZATION_RELEASED) {
                throw new IllegalArgumentException(movement.kind() + " depends on nothing the statement computes");
            }
            String suffix = "_" + i;
            String amount = "CAST(:lg" + suffix + "_amount AS bigint)";
            String fee = movement.kind() == MoneyMovement.Kind.CAPTURED
                    ? FeeRule.inSql(amount, "i.bps", "i.fixed_minor")
                    : "0";
            // LEAST ignores a NULL: a payment that never had a hold (an automatic capture) closes nothing.
            String closed = "(CASE WHEN i.open_hold IS NULL THEN 0 ELSE LEAST(%s, i.open_hold - %s) END)"
                    .formatted(amount, closedBefore);
            List<JournalStore.ComputedLine> lines = PostingRules.legs(movement.kind()).stream()
                    .map(leg -> new JournalStore.ComputedLine(
                            account(leg.account(), first.merchant(), currency),
                            leg.side(),
                            switch (leg.term()) {
                                case AMOUNT -> amount;
                                case NET_OF_FEE -> amount + " - " + fee;
                                case FEE -> fee;
                                case HOLD_CLOSED -> closed;
                            }))
                    .toList();
            SqlPart posting = journal.computedPart(header(movement), lines, "ledger_inputs", source, suffix);
            sql.append(",\n").append(posting.sql());
            params.putAll(posting.params());
            closedBefore = "(" + closedBefore + " + " + closed + ")";
        }
        return new SqlPart(sql.toString(), params);
    }

    /**
     * Movements of many payments that close nothing — a capture at once (its fee computed by the statement from the
     * merchant's rule in the currency, as {@link #capturedAtOncePart} does) or an opening ({@link #openingPart}) — as
     * common table expressions of the caller's statement (a batch of phase 3s), each posted once when the CTE
     * {@code source} has a row whose {@code id} is the movement's source id. Idempotent by its source like every
     * posting.
     */
    public SqlPart atOnceEachPart(List<MoneyMovement> movements, String source) {
        for (MoneyMovement movement : movements) {
            switch (movement.kind()) {
                case CAPTURED, AUTHORIZATION_HELD, REFUND_RESERVED, CHARGEBACK_WITHDRAWN -> {
                    // closes nothing: posted from its own amount (and a capture's fee)
                }
                case AUTHORIZATION_RELEASED, REFUND_SUCCEEDED, REFUND_RELEASED, CHARGEBACK_REVERSED ->
                    throw new IllegalArgumentException(
                            movement.kind() + " closes something; post it with what it closes");
            }
        }
        // What a capture at once closes is nothing: it never had a hold.
        return JournalStore.computedEachPart(headers(movements), linesOf(movements), terms("0"), source);
    }

    /**
     * {@link #computedPart} for the captures and releases of many payments in one statement (a batch of phase 3s):
     * each posted once when the CTE {@code source} has a row whose {@code id} is its source id, with its fee and the
     * part of its payment's open hold it closes computed by the statement, as {@link #computedPart} computes them. A
     * payment's movements close its hold in the order given (a release after the capture before it), as in
     * {@link #computedPart}. The caller must have locked every payment's row in an earlier statement of its
     * transaction.
     */
    public SqlPart heldEachPart(List<MoneyMovement> movements, String source) {
        long[] priors = new long[movements.size()];
        Map<UUID, Long> before = new HashMap<>();
        for (int i = 0; i < movements.size(); i++) {
            MoneyMovement movement = movements.get(i);
            if (movement.kind() != MoneyMovement.Kind.CAPTURED
                    && movement.kind() != MoneyMovement.Kind.AUTHORIZATION_RELEASED) {
                throw new IllegalArgumentException(movement.kind() + " depends on nothing the statement computes");
            }
            priors[i] = before.getOrDefault(movement.paymentId(), 0L);
            before.merge(movement.paymentId(), movement.amount().minor(), Long::sum);
        }
        // What earlier movements of the payment closed is at most the hold (LEAST ignores the NULL of no hold).
        String closed = "(CASE WHEN i.open_hold IS NULL THEN 0"
                + " ELSE LEAST(i.amount_minor, i.open_hold - LEAST(i.prior, i.open_hold)) END)";
        return JournalStore.heldEachPart(headers(movements), linesOf(movements), terms(closed), source, priors);
    }

    /**
     * {@link #outcomePart} for the outcomes of many refunds in one statement (a batch of phase 3s), beside its other
     * postings: each posted once when the CTE {@code source} has a row whose {@code id} is its source id, and only
     * against its opening (the refund's REFUND_RESERVED, for the same merchant, payment, currency and amount),
     * checked by the statement. An outcome without its opening is a bug, so the caller requires that
     * {@code written} yields one row for each.
     */
    public Required outcomeEachPart(List<MoneyMovement> movements, String source) {
        for (MoneyMovement movement : movements) {
            if (movement.kind() != MoneyMovement.Kind.REFUND_SUCCEEDED
                    && movement.kind() != MoneyMovement.Kind.REFUND_RELEASED) {
                throw new IllegalArgumentException(movement.kind() + " is not a refund's outcome");
            }
        }
        // Every line of a refund's outcome is its amount, as outcomePart posts it.
        String amount = "i.amount_minor";
        Map<PostingRules.Term, String> terms = new HashMap<>();
        for (PostingRules.Term term : PostingRules.Term.values()) {
            terms.put(term, amount);
        }
        SqlPart part = JournalStore.outcomeEachPart(
                headers(movements), linesOf(movements), terms, source, MoneyMovement.Kind.REFUND_RESERVED.name());
        return new Required(part, JournalStore.OUTCOME_EACH_WRITTEN);
    }

    private List<LedgerTransaction> headers(List<MoneyMovement> movements) {
        return movements.stream().map(this::header).toList();
    }

    private List<List<JournalStore.TermLine>> linesOf(List<MoneyMovement> movements) {
        return movements.stream()
                .map(movement -> PostingRules.legs(movement.kind()).stream()
                        .map(leg -> new JournalStore.TermLine(
                                account(
                                        leg.account(),
                                        movement.merchant(),
                                        movement.amount().currency().code()),
                                leg.side(),
                                leg.term()))
                        .toList())
                .toList();
    }

    /** The posting table's terms over a batch row {@code i}: its amount, its fee, and {@code closed} of its hold. */
    private static Map<PostingRules.Term, String> terms(String closed) {
        String amount = "i.amount_minor";
        String fee = FeeRule.inSql(amount, "i.bps", "i.fixed_minor");
        return Map.of(
                PostingRules.Term.AMOUNT,
                amount,
                PostingRules.Term.NET_OF_FEE,
                amount + " - " + fee,
                PostingRules.Term.FEE,
                fee,
                PostingRules.Term.HOLD_CLOSED,
                closed);
    }

    /** A part of the caller's statement that must post: {@code written} names its CTE that yields a row when it did. */
    public record Required(SqlPart part, String written) {}

    /**
     * A refund's outcome (REFUND_SUCCEEDED or REFUND_RELEASED) as common table expressions of the caller's
     * statement, posted once when the CTE {@code source} has a row, and only against its opening: the refund's
     * REFUND_RESERVED, for the same merchant, payment, currency and amount, checked by the statement itself (nothing
     * is read first). An outcome without its opening is a bug, so the caller requires {@code written}.
     */
    public Required outcomePart(MoneyMovement movement, String source) {
        if (movement.kind() != MoneyMovement.Kind.REFUND_SUCCEEDED
                && movement.kind() != MoneyMovement.Kind.REFUND_RELEASED) {
            throw new IllegalArgumentException(movement.kind() + " is not a refund's outcome");
        }
        String suffix = "_outcome";
        String currency = movement.amount().currency().code();
        String amount = "CAST(:lg" + suffix + "_amount AS bigint)";
        List<JournalStore.ComputedLine> lines = PostingRules.legs(movement.kind()).stream()
                .map(leg -> new JournalStore.ComputedLine(
                        account(leg.account(), movement.merchant(), currency), leg.side(), amount))
                .toList();
        SqlPart part = journal.computedPart(
                header(movement),
                lines,
                "(SELECT 1)",
                source,
                suffix,
                JournalStore.openedGuard(suffix, MoneyMovement.Kind.REFUND_RESERVED.name(), true));
        return new Required(part, "ledger_header" + suffix);
    }

    /** The journal transaction that posts {@code movement}, without its entries. */
    private LedgerTransaction header(MoneyMovement movement) {
        return new LedgerTransaction(
                TimeOrderedIds.next(clock),
                movement.merchant(),
                movement.paymentId(),
                movement.sourceId(),
                movement.kind().name(),
                movement.amount().minor(),
                movement.amount().currency().code(),
                null,
                null,
                movement.occurredAt(),
                clock.instant(),
                List.of());
    }

    /**
     * Posts a change of a PSP fee inside the caller's transaction: two platform accounts, no merchant. Idempotent by
     * its source like every posting.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public PostResult postPspFee(PspFee fee) {
        Posting posting = PostingRules.pspFee(fee.changeMinor());
        LedgerTransaction tx = new LedgerTransaction(
                TimeOrderedIds.next(clock),
                null,
                fee.paymentId(),
                fee.sourceId(),
                fee.kind(),
                Math.absExact(fee.changeMinor()),
                fee.currency(),
                null,
                null,
                fee.occurredAt(),
                clock.instant(),
                List.of());
        List<JournalStore.NewLine> lines = resolve(posting, null, fee.currency());
        if (!journal.insert(tx, lines)) {
            count(fee.kind(), "already_posted");
            return new PostResult.AlreadyPosted(journal.findBySource(fee.sourceId(), fee.kind())
                    .orElseThrow(() -> new IllegalStateException("PSP fee " + fee + " conflicted but is gone")));
        }
        count(fee.kind(), "posted");
        return new PostResult.Posted(written(tx, posting, lines));
    }

    /** The transaction as just written, with its entries, without reading it back. */
    private static LedgerTransaction written(LedgerTransaction tx, Posting posting, List<JournalStore.NewLine> lines) {
        List<LedgerEntry> entries = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Line line = posting.lines().get(i);
            entries.add(new LedgerEntry(
                    i + 1, lines.get(i).accountId(), line.account(), line.side(), line.amountMinor(), tx.currency()));
        }
        return new LedgerTransaction(
                tx.id(),
                tx.merchant(),
                tx.paymentId(),
                tx.sourceId(),
                tx.kind(),
                tx.amountMinor(),
                tx.currency(),
                tx.reverses(),
                tx.reason(),
                tx.occurredAt(),
                tx.recordedAt(),
                entries);
    }

    /**
     * Posts the mirror image of a journal transaction, pointing at it. Idempotent: a transaction is reversed at most
     * once (the reversal's source is the reversed transaction), and asking again returns the existing reversal.
     */
    @Transactional
    public ReversalResult reverse(UUID transactionId, String reason) {
        Objects.requireNonNull(reason, "reason");
        if (reason.isBlank() || reason.length() > MAX_REASON) {
            throw new IllegalArgumentException("a reversal needs a reason of 1–" + MAX_REASON + " characters");
        }
        Optional<LedgerTransaction> found = journal.find(transactionId);
        if (found.isEmpty()) {
            return new ReversalResult.NotFound();
        }
        LedgerTransaction original = found.get();
        LedgerTransaction reversal = new LedgerTransaction(
                TimeOrderedIds.next(clock),
                original.merchant(),
                original.paymentId(),
                original.id(),
                LedgerTransaction.REVERSAL,
                original.amountMinor(),
                original.currency(),
                original.id(),
                reason,
                clock.instant(),
                clock.instant(),
                List.of());
        List<JournalStore.NewLine> lines = original.entries().stream()
                .map(e -> new JournalStore.NewLine(e.accountId(), e.side().opposite(), e.amountMinor()))
                .toList();
        if (!journal.insert(reversal, lines)) {
            return new ReversalResult.AlreadyReversed(journal.findBySource(original.id(), LedgerTransaction.REVERSAL)
                    .orElseThrow(() -> new IllegalStateException("reversal of " + original.id() + " is gone")));
        }
        LedgerTransaction written = journal.find(reversal.id())
                .orElseThrow(() -> new IllegalStateException("reversal " + reversal.id() + " was not written"));
        if (written.entries().size() != original.entries().size()) {
            throw new IllegalStateException("reversal " + written.id() + " does not mirror " + original.id());
        }
        count(LedgerTransaction.REVERSAL, "posted");
        log.warn("ledger transaction {} reversed by {}: {}", original.publicId(), written.publicId(), reason);
        return new ReversalResult.Reversed(written);
    }

    /** A chargeback's reversal returns at most what its dispute withdrew, from the same merchant and payment. */
    private void requireWithdrawal(MoneyMovement movement) {
        MoneyMovement.Kind opening = MoneyMovement.Kind.CHARGEBACK_WITHDRAWN;
        LedgerTransaction opened = journal.findBySource(movement.sourceId(), opening.name())
                .orElseThrow(() -> new IllegalStateException(movement.kind() + " of source " + movement.sourceId()
                        + " has no " + opening + " with the same source id"));
        boolean sameOwner = opened.merchant().equals(movement.merchant())
                && opened.paymentId().equals(movement.paymentId())
                && opened.currency().equals(movement.amount().currency().code());
        if (!sameOwner || movement.amount().minor() > opened.amountMinor()) {
            throw new IllegalStateException(movement.kind() + " " + movement + " does not match its " + opening + " of "
                    + opened.amountMinor() + " " + opened.currency() + " for payment " + opened.paymentId());
        }
    }

    /** A replay must be the same movement; the same source with other facts is a bug upstream. */
    private static void requireSameFacts(MoneyMovement movement, LedgerTransaction existing) {
        if (!existing.merchant().equals(movement.merchant())
                || !movement.paymentId().equals(existing.paymentId())
                || existing.amountMinor() != movement.amount().minor()
                || !existing.currency().equals(movement.amount().currency().code())) {
            throw new IllegalStateException("movement " + movement + " replays source " + movement.sourceId()
                    + " with other facts than " + existing.publicId());
        }
    }

    private List<JournalStore.NewLine> resolve(Posting posting, MerchantId merchant, String currency) {
        return posting.lines().stream()
                .map(line ->
                        new JournalStore.NewLine(account(line, merchant, currency), line.side(), line.amountMinor()))
                .toList();
    }

    private long account(Line line, MerchantId merchant, String currency) {
        return account(line.account(), merchant, currency);
    }

    private long account(AccountType type, MerchantId merchant, String currency) {
        if (!type.isPlatform() && merchant == null) {
            throw new IllegalStateException(
                    type + " is a merchant's account; a posting without a merchant cannot use it");
        }
        return accounts.id(new AccountStore.Key(type.isPlatform() ? null : merchant.value(), type, currency));
    }

    private void count(String kind, String outcome) {
        meters.counter("kopek.ledger.postings", "kind", kind.toLowerCase(Locale.ROOT), "outcome", outcome)
                .increment();
    }
}
