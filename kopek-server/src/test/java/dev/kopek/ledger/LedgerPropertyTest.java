package dev.kopek.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.events.MoneyMovement;
import dev.kopek.events.MoneyMovement.Kind;
import dev.kopek.ledger.domain.AccountType;
import dev.kopek.ledger.domain.FeeRule;
import dev.kopek.money.MerchantId;
import dev.kopek.support.Gen;
import dev.kopek.support.Property;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Random lives of payments — authorizations, automatic and partial captures, releases, refunds that succeed or
 * fail, chargebacks and their reversals — with faults: replayed movements and business transactions that roll
 * back after posting. Each movement is posted as Kopek posts it (a statement part or the listener) inside a real
 * transaction. After each life:
 * every journal transaction sums to zero, every balance equals the sum of its entries, and the merchant's payable
 * equals captured − fees − refunds − chargebacks as an independent model computes them.
 */
class LedgerPropertyTest extends LedgerTestSupport {

    private static final String[] CURRENCIES = {"EUR", "JPY", "KWD"};
    private static final int SLOTS = 4;

    enum Op {
        AUTHORIZE,
        CHARGE,
        CAPTURE,
        FINAL_CAPTURE,
        RELEASE,
        REFUND,
        REFUND_SUCCEEDS,
        REFUND_FAILS,
        CHARGEBACK,
        CHARGEBACK_REVERSED,
        REPLAY
    }

    /**
     * @param slot which of the life's payments
     * @param percent how much of what is possible
     * @param rollback the business transaction fails after posting (one step in ten)
     */
    record Step(Op op, int slot, int percent, boolean rollback) {}

    /** One life: its steps (1 to 50, of uniformly distributed length) and the merchant's fee rule. */
    record Life(List<Step> steps, FeeRule fee) {}

    private static Gen<Life> lives() {
        Gen<Op> ops = Gen.frequency(List.of(
                Map.entry(4, Op.AUTHORIZE),
                Map.entry(2, Op.CHARGE),
                Map.entry(4, Op.CAPTURE),
                Map.entry(1, Op.FINAL_CAPTURE),
                Map.entry(1, Op.RELEASE),
                Map.entry(3, Op.REFUND),
                Map.entry(2, Op.REFUND_SUCCEEDS),
                Map.entry(1, Op.REFUND_FAILS),
                Map.entry(1, Op.CHARGEBACK),
                Map.entry(1, Op.CHARGEBACK_REVERSED),
                Map.entry(2, Op.REPLAY)));
        Gen<Integer> slots = Gen.ints(0, SLOTS - 1);
        Gen<Integer> percents = Gen.ints(1, 100);
        Gen<Boolean> rollbacks = Gen.ints(1, 10).map(i -> i == 10);
        Gen<Step> steps = c -> new Step(ops.draw(c), slots.draw(c), percents.draw(c), rollbacks.draw(c));
        Gen<Integer> bps = Gen.ints(0, 1_500);
        Gen<Long> fixed = Gen.longs(0, 500);
        Gen<List<Step>> lists = steps.list(1, 50);
        return c -> new Life(lists.draw(c), new FeeRule(bps.draw(c), fixed.draw(c)));
    }

    @Test
    void booksBalanceAfterAnyLifeOfPayments() {
        AtomicInteger faulty = new AtomicInteger();
        Property.check(150, lives(), life -> {
            if (booksBalanceAfter(life.steps(), life.fee()) > 0) {
                faulty.incrementAndGet();
            }
        });
        assertThat(faulty).as("lives with replays or rollbacks").hasPositiveValue();
    }

    /** Lives one life and checks the books; returns how many of its steps were faults. */
    private int booksBalanceAfter(List<Step> life, FeeRule fee) {
        MerchantId merchant = newMerchantId();
        for (String currency : CURRENCIES) {
            queries.setFee(merchant, currency, fee);
        }
        Map<String, long[]> platformBefore = platform();
        Model model = new Model(merchant, fee);
        for (Step step : life) {
            model.apply(step);
        }

        assertThat(unbalancedTransactions(merchant)).isZero();
        assertThat(driftChecker.check().drifts())
                .noneMatch(d -> d.merchant() == null || d.merchant().equals(merchant.value()));
        assertThat(journalOf(merchant, null)).hasSize(model.postings);
        for (String currency : CURRENCIES) {
            Books expected = model.books.getOrDefault(currency, new Books());
            assertThat(balance(merchant, AccountType.MERCHANT_PAYABLE, currency))
                    .as("payable " + currency)
                    .isEqualTo(expected.captured
                            - expected.fees
                            - expected.refundsReserved
                            + expected.refundsReleased
                            - expected.chargebacks
                            + expected.chargebacksReversed);
            assertThat(balance(merchant, AccountType.HOLDS_PAYABLE, currency))
                    .as("pending " + currency)
                    .isEqualTo(model.openHolds(currency));
            assertThat(balance(merchant, AccountType.HOLDS_RECEIVABLE, currency))
                    .isEqualTo(model.openHolds(currency));
            assertThat(balance(merchant, AccountType.REFUNDS_PENDING, currency))
                    .as("held " + currency)
                    .isEqualTo(expected.refundsReserved - expected.refundsReleased - expected.refundsSucceeded);
            assertThat(balance(merchant, AccountType.CHARGEBACKS, currency))
                    .isEqualTo(expected.chargebacks - expected.chargebacksReversed);
            long[] before = platformBefore.getOrDefault(currency, new long[2]);
            long[] after = platform().getOrDefault(currency, new long[2]);
            assertThat(after[0] - before[0])
                    .as("PSP receivable " + currency)
                    .isEqualTo(expected.captured - expected.refundsSucceeded);
            assertThat(after[1] - before[1]).as("platform revenue " + currency).isEqualTo(expected.fees);
        }
        return model.faults;
    }

    /** Platform receivable and revenue per currency. */
    private Map<String, long[]> platform() {
        Map<String, long[]> result = new HashMap<>();
        queries.platformBalances()
                .forEach((currency, accounts) -> result.put(currency, new long[] {
                    accounts.getOrDefault(AccountType.PSP_RECEIVABLE, 0L),
                    accounts.getOrDefault(AccountType.PLATFORM_REVENUE, 0L)
                }));
        return result;
    }

    /** What the books must say, per currency, counted independently of the ledger. */
    static final class Books {
        long captured;
        long fees;
        long refundsReserved;
        long refundsSucceeded;
        long refundsReleased;
        long chargebacks;
        long chargebacksReversed;
    }

    record Opening(UUID source, long amount) {}

    /** One payment slot of the life. */
    static final class PaymentState {
        final UUID id = UUID.randomUUID();
        final String currency;
        boolean started;
        long openHold;
        long captured;
        long refundedOrPending;
        long disputed;
        final List<Opening> pendingRefunds = new ArrayList<>();
        final List<Opening> openDisputes = new ArrayList<>();

        PaymentState(String currency) {
            this.currency = currency;
        }
    }

    /** Interprets steps as the payment lifecycle allows, publishes the movements and keeps the expected books. */
    final class Model {
        private final MerchantId merchant;
        private final FeeRule fee;
        private final PaymentState[] payments = new PaymentState[SLOTS];
        private final List<MoneyMovement[]> published = new ArrayList<>();
        final Map<String, Books> books = new HashMap<>();
        int postings;
        int faults;

        Model(MerchantId merchant, FeeRule fee) {
            this.merchant = merchant;
            this.fee = fee;
            for (int i = 0; i < payments.length; i++) {
                payments[i] = new PaymentState(CURRENCIES[i % CURRENCIES.length]);
            }
        }

        long openHolds(String currency) {
            long open = 0;
            for (PaymentState p : payments) {
                open += p.currency.equals(currency) ? p.openHold : 0;
            }
            return open;
        }

        void apply(Step generated) {
            PaymentState p = payments[generated.slot()];
            Step step = new Step(
                    feasible(generated.op(), p, generated.percent()),
                    generated.slot(),
                    generated.percent(),
                    generated.rollback());
            Books b = books.computeIfAbsent(p.currency, c -> new Books());
            long amount = 1 + step.percent() * 997L;
            switch (step.op()) {
                case AUTHORIZE -> {
                    if (!p.started && commit(step, move(Kind.AUTHORIZATION_HELD, p, p.id, amount))) {
                        p.started = true;
                        p.openHold = amount;
                        postings++;
                    }
                }
                case CHARGE -> {
                    if (!p.started && commit(step, move(Kind.CAPTURED, p, p.id, amount))) {
                        p.started = true;
                        captured(p, b, amount);
                        postings++;
                    }
                }
                case CAPTURE, FINAL_CAPTURE -> {
                    if (p.openHold == 0) {
                        return;
                    }
                    long part = Math.max(1, p.openHold * step.percent() / 100);
                    long rest = p.openHold - part;
                    UUID capture = UUID.randomUUID();
                    boolean release = step.op() == Op.FINAL_CAPTURE && rest > 0;
                    MoneyMovement[] moves = release
                            ? new MoneyMovement[] {
                                move(Kind.CAPTURED, p, capture, part),
                                move(Kind.AUTHORIZATION_RELEASED, p, capture, rest)
                            }
                            : new MoneyMovement[] {move(Kind.CAPTURED, p, capture, part)};
                    if (commit(step, moves)) {
                        captured(p, b, part);
                        p.openHold = release ? 0 : rest;
                        postings += moves.length;
                    }
                }
                case RELEASE -> {
                    UUID release = UUID.randomUUID();
                    if (p.openHold > 0 && commit(step, move(Kind.AUTHORIZATION_RELEASED, p, release, p.openHold))) {
                        p.openHold = 0;
                        postings++;
                    }
                }
                case REFUND -> {
                    long refundable = p.captured - p.refundedOrPending;
                    long refund = Math.max(1, refundable * step.percent() / 100);
                    UUID id = UUID.randomUUID();
                    if (refundable > 0 && commit(step, move(Kind.REFUND_RESERVED, p, id, refund))) {
                        p.refundedOrPending += refund;
                        p.pendingRefunds.add(new Opening(id, refund));
                        b.refundsReserved += refund;
                        postings++;
                    }
                }
                case REFUND_SUCCEEDS, REFUND_FAILS -> {
                    if (p.pendingRefunds.isEmpty()) {
                        return;
                    }
                    Opening refund = p.pendingRefunds.get(step.percent() % p.pendingRefunds.size());
                    boolean ok = step.op() == Op.REFUND_SUCCEEDS;
                    if (commit(
                            step,
                            move(
                                    ok ? Kind.REFUND_SUCCEEDED : Kind.REFUND_RELEASED,
                                    p,
                                    refund.source(),
                                    refund.amount()))) {
                        p.pendingRefunds.remove(refund);
                        if (ok) {
                            b.refundsSucceeded += refund.amount();
                        } else {
                            b.refundsReleased += refund.amount();
                            p.refundedOrPending -= refund.amount();
                        }
                        postings++;
                    }
                }
                case CHARGEBACK -> {
                    long disputable = p.captured - p.disputed;
                    long amountDisputed = Math.max(1, disputable * step.percent() / 100);
                    UUID dispute = UUID.randomUUID();
                    if (disputable > 0 && commit(step, move(Kind.CHARGEBACK_WITHDRAWN, p, dispute, amountDisputed))) {
                        p.disputed += amountDisputed;
                        p.openDisputes.add(new Opening(dispute, amountDisputed));
                        b.chargebacks += amountDisputed;
                        postings++;
                    }
                }
                case CHARGEBACK_REVERSED -> {
                    if (p.openDisputes.isEmpty()) {
                        return;
                    }
                    Opening dispute = p.openDisputes.get(step.percent() % p.openDisputes.size());
                    long won = Math.max(1, dispute.amount() * step.percent() / 100);
                    if (commit(step, move(Kind.CHARGEBACK_REVERSED, p, dispute.source(), won))) {
                        p.openDisputes.remove(dispute);
                        b.chargebacksReversed += won;
                        postings++;
                    }
                }
                case REPLAY -> {
                    if (!published.isEmpty()) {
                        // A replayed or reconciled outcome: the same movements again, in a new transaction.
                        commit(step, published.get(step.percent() % published.size()));
                    }
                }
            }
        }

        /** Turns a step the payment's state does not allow into the nearest one it does, so lives stay dense. */
        private Op feasible(Op op, PaymentState p, int percent) {
            if (!p.started) {
                return op == Op.AUTHORIZE || op == Op.CHARGE ? op : percent % 2 == 0 ? Op.AUTHORIZE : Op.CHARGE;
            }
            return switch (op) {
                case AUTHORIZE, CHARGE -> p.openHold > 0 ? Op.CAPTURE : Op.REFUND;
                case CAPTURE, FINAL_CAPTURE, RELEASE -> p.openHold > 0 ? op : Op.REFUND;
                case REFUND_SUCCEEDS, REFUND_FAILS -> p.pendingRefunds.isEmpty() ? Op.REFUND : op;
                case CHARGEBACK_REVERSED -> p.openDisputes.isEmpty() ? Op.CHARGEBACK : op;
                case REFUND, CHARGEBACK, REPLAY -> op;
            };
        }

        private void captured(PaymentState p, Books b, long amount) {
            p.captured += amount;
            b.captured += amount;
            b.fees += expectedFee(amount);
        }

        /** The fee rule computed another way: exact rational arithmetic, then half up. */
        private long expectedFee(long amount) {
            BigInteger scaled = BigInteger.valueOf(amount).multiply(BigInteger.valueOf(fee.bps()));
            BigInteger[] qr = scaled.divideAndRemainder(BigInteger.valueOf(10_000));
            long proportional = qr[0].longValueExact() + (qr[1].compareTo(BigInteger.valueOf(5_000)) >= 0 ? 1 : 0);
            return Math.min(amount, proportional + fee.fixedMinor());
        }

        private MoneyMovement move(Kind kind, PaymentState p, UUID source, long amount) {
            return movement(kind, merchant, p.id, source, amount, p.currency);
        }

        /** Publishes in one business transaction; a faulty step rolls it back after posting. */
        private boolean commit(Step step, MoneyMovement... moves) {
            faults += step.rollback() || step.op() == Op.REPLAY ? 1 : 0;
            tx.executeWithoutResult(status -> {
                postIn(moves);
                if (step.rollback()) {
                    status.setRollbackOnly();
                }
            });
            if (!step.rollback() && step.op() != Op.REPLAY) {
                published.add(moves);
            }
            return !step.rollback();
        }
    }
}
