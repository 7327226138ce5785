package dev.kopek.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.events.MoneyMovement.Kind;
import dev.kopek.ledger.domain.AccountType;
import dev.kopek.ledger.domain.FeeRule;
import dev.kopek.money.MerchantId;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A storm on the hot accounts: 32 threads released together by a barrier post 512 captures that all touch the
 * platform's PSP receivable and revenue in one currency, and four merchants' payables (eight threads each). Every
 * posting must land exactly once — no deadlock, no lost update — and the sharded balance must be exact. And
 * concurrent captures of one authorization close its hold once, never beyond it.
 */
class LedgerConcurrencyTest extends LedgerTestSupport {

    private static final int THREADS = 32;
    private static final int POSTINGS_PER_THREAD = 16;
    private static final String CURRENCY = "CHF";
    private static final FeeRule FEE = new FeeRule(175, 25);

    @Test
    void concurrentPostingsOnOneHotAccountKeepTheExactBalance() throws Exception {
        List<MerchantId> merchants = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            MerchantId merchant = newMerchantId();
            queries.setFee(merchant, CURRENCY, FEE);
            merchants.add(merchant);
        }
        long receivableBefore = balance(null, AccountType.PSP_RECEIVABLE, CURRENCY);
        long revenueBefore = balance(null, AccountType.PLATFORM_REVENUE, CURRENCY);
        AtomicLong captured = new AtomicLong();
        AtomicLong fees = new AtomicLong();
        long[] payable = new long[merchants.size()];
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CyclicBarrier start = new CyclicBarrier(THREADS);

        try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                MerchantId merchant = merchants.get(thread % merchants.size());
                done.add(pool.submit(() -> {
                    try {
                        start.await(30, TimeUnit.SECONDS);
                        for (int i = 0; i < POSTINGS_PER_THREAD; i++) {
                            long amount = 1_000 + thread * 100L + i;
                            UUID payment = UUID.randomUUID();
                            publish(movement(Kind.CAPTURED, merchant, payment, payment, amount, CURRENCY));
                            captured.addAndGet(amount);
                            fees.addAndGet(FEE.feeFor(amount));
                            synchronized (payable) {
                                payable[thread % merchants.size()] += amount - FEE.feeFor(amount);
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
        }

        assertThat(failures).as("deadlocks or other failures").isEmpty();
        assertThat(captured.get()).isPositive();
        assertThat(balance(null, AccountType.PSP_RECEIVABLE, CURRENCY) - receivableBefore)
                .isEqualTo(captured.get());
        assertThat(balance(null, AccountType.PLATFORM_REVENUE, CURRENCY) - revenueBefore)
                .isEqualTo(fees.get());
        for (int m = 0; m < merchants.size(); m++) {
            assertThat(balance(merchants.get(m), AccountType.MERCHANT_PAYABLE, CURRENCY))
                    .isEqualTo(payable[m]);
            assertThat(unbalancedTransactions(merchants.get(m))).isZero();
        }
        assertThat(jdbc.sql("SELECT count(*) FROM ledger_transactions WHERE merchant_id IN (:m)")
                        .param("m", merchants.stream().map(MerchantId::value).toList())
                        .query(Long.class)
                        .single())
                .isEqualTo((long) THREADS * POSTINGS_PER_THREAD);
        assertThat(entryBalance(null, AccountType.PSP_RECEIVABLE, CURRENCY))
                .isEqualTo(balance(null, AccountType.PSP_RECEIVABLE, CURRENCY));
        // Postings lock no balance row; the projector adds them afterwards, each exactly once.
        projectAll();
        assertThat(projectedBalance(null, AccountType.PSP_RECEIVABLE, CURRENCY))
                .isEqualTo(entryBalance(null, AccountType.PSP_RECEIVABLE, CURRENCY));
        for (MerchantId merchant : merchants) {
            assertThat(projectedBalance(merchant, AccountType.MERCHANT_PAYABLE, CURRENCY))
                    .isEqualTo(entryBalance(merchant, AccountType.MERCHANT_PAYABLE, CURRENCY));
        }
    }

    @Test
    void concurrentCapturesOfOneHoldCloseItExactlyOnce() throws Exception {
        MerchantId merchant = newMerchantId();
        UUID payment = newId();
        publish(movement(Kind.AUTHORIZATION_HELD, merchant, payment, payment, 1_000, CURRENCY));
        int captures = 16;
        CyclicBarrier start = new CyclicBarrier(captures);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(captures)) {
            for (int i = 0; i < captures; i++) {
                pool.submit(() -> {
                    try {
                        start.await(30, TimeUnit.SECONDS);
                        publish(movement(Kind.CAPTURED, merchant, payment, UUID.randomUUID(), 100, CURRENCY));
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
            }
        }

        assertThat(failures).isEmpty();
        // 16 captures of 100 against a hold of 1,000: the first ten close it, the rest find it closed.
        assertThat(balance(merchant, AccountType.HOLDS_PAYABLE, CURRENCY)).isZero();
        assertThat(balance(merchant, AccountType.HOLDS_RECEIVABLE, CURRENCY)).isZero();
        assertThat(balance(merchant, AccountType.MERCHANT_PAYABLE, CURRENCY)).isEqualTo(1_600);
        assertThat(unbalancedTransactions(merchant)).isZero();
    }
}
