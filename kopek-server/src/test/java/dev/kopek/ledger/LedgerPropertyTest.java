package dev.kopek.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.events.MoneyMovement;
import dev.kopek.events.MoneyMovement.Kind;
import dev.kopek.ledger.domain.AccountType;
import dev.kopek.ledger.domain.FeeRule;
import dev.kopek.money.MerchantId;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.BeforeProperty;
import net.jqwik.api.statistics.Statistics;
import org.springframework.test.context.TestContextManager;

/**
 * Random lives of payments — authorizations, automatic and partial captures, releases, refunds that succeed or
 * fail, chargebacks and their reversals — with faults: replayed movements and business transactions that roll
 * back after posting. Each movement goes through the real listener inside a real transaction. After each life:
 * every journal transaction sums to zero, every balance equals the sum of its entries, and the merchant's payable
 * equals captured − fees − refunds − chargebacks as an independent model computes them.
 *
 * <p>jqwik is not a JUnit Jupiter extension host, so the Spring context (the one every {@code IntegrationTest}
 * shares, from Spring's context cache) is attached by hand.
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

    @BeforeProperty
    void attachSpring() throws Exception {
        new TestContextManager(getClass()).prepareTestInstance(this);
    }

    @Provide
    Arbitrary<List<Step>> lives() {
        Arbitrary<Op> ops = Arbitraries.frequency(
                Tuple.of(4, Op.AUTHORIZE),
                Tuple.of(2, Op.CHARGE),
                Tuple.of(4, Op.CAPTURE),
                Tuple.of(1, Op.FINAL_CAPTURE),
                Tuple.of(1, Op.RELEASE),
                Tuple.of(3, Op.REFUND),
                Tuple.of(2, Op.REFUND_SUCCEEDS),
                Tuple.of(1, Op.REFUND_FAILS),
                Tuple.of(1, Op.CHARGEBACK),
                Tuple.of(1, Op.CHARGEBACK_REVERSED),
                Tuple.of(2, Op.REPLAY));
        return Combinators.combine(
                        ops,
                        Arbitraries.integers().between(0, SLOTS - 1),
                        Arbitraries.integers().between(1, 100),
                        Arbitraries.integers().between(1, 10).map(i -> i == 1))
                .as(Step::new)
                .list()
                .ofMinSize(1)
                .ofMaxSize(50)
                .withSizeDistribution(RandomDistribution.uniform());
    }

    @Provide
    Arbitrary<FeeRule> fees() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 1_500),
                        Arbitraries.longs().between(0, 500))
                .as(FeeRule::new);
    }

    @Property(tries = 150, edgeCases = EdgeCasesMode.NONE)
    void booksBalanceAfterAnyLifeOfPayments(@ForAll("lives") List<Step> life, @ForAll("fees") FeeRule fee) {
        MerchantId merchant = newMerchantId();
        for (String currency : CURRENCIES) {
            queries.setFee(merchant, currency, fee);
        }
        Map<String, long[]> platformBefore = platform();
        Model model = new Model(merchant, fee);
        for (Step step : life) {
            model.apply(step);
        }

        Statistics.label("postings per life").collect(model.postings / 10 * 10);
        Statistics.label("replays and rollbacks").collect(model.faults > 0);
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
                for (MoneyMovement m : moves) {
                    publisher.publishEvent(m);
                }
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
