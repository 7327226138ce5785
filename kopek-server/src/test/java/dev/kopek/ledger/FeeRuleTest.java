package dev.kopek.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.ledger.domain.FeeRule;
import dev.kopek.support.Gen;
import dev.kopek.support.Property;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** The one rounding rule of fees, against exact arithmetic, over the whole range of amounts. */
class FeeRuleTest {

    /** A capture's amount and the fee rule's two parts. */
    record Case(long amount, int bps, long fixed) {}

    private static Gen<Case> cases(long maxAmount, long maxFixed) {
        Gen<Long> amounts = Gen.longs(1, maxAmount);
        Gen<Integer> bps = Gen.ints(0, FeeRule.MAX_BPS);
        Gen<Long> fixed = Gen.longs(0, maxFixed);
        return c -> new Case(amounts.draw(c), bps.draw(c), fixed.draw(c));
    }

    @Test
    void feeIsHalfUpOfTheBasisPointsPlusTheFixedPartCappedAtTheAmount() {
        Property.check(
                2_000,
                cases(Long.MAX_VALUE, FeeRule.MAX_FIXED_MINOR),
                c -> feeIsHalfUpPlusFixedCapped(c.amount(), c.bps(), c.fixed()));
    }

    private static void feeIsHalfUpPlusFixedCapped(long amount, int bps, long fixed) {
        BigInteger[] qr = BigInteger.valueOf(amount)
                .multiply(BigInteger.valueOf(bps))
                .divideAndRemainder(BigInteger.valueOf(10_000));
        BigInteger halfUp = qr[1].compareTo(BigInteger.valueOf(5_000)) >= 0 ? qr[0].add(BigInteger.ONE) : qr[0];
        long expected = halfUp.add(BigInteger.valueOf(fixed))
                .min(BigInteger.valueOf(amount))
                .longValueExact();

        long fee = new FeeRule(bps, fixed).feeFor(amount);

        assertThat(fee).isEqualTo(expected).isBetween(0L, amount);
    }

    @Test
    void aLargerCaptureNeverPaysASmallerFee() {
        Property.check(500, cases(1_000_000_000_000L, 10_000), c -> {
            FeeRule rule = new FeeRule(c.bps(), c.fixed());
            assertThat(rule.feeFor(c.amount() + 1)).isGreaterThanOrEqualTo(rule.feeFor(c.amount()));
        });
    }

    @Test
    void halfAMinorUnitRoundsUpAndLessRoundsDown() {
        assertThat(new FeeRule(50, 0).feeFor(100)).isEqualTo(1); // 0.5 → 1
        assertThat(new FeeRule(49, 0).feeFor(100)).isEqualTo(0); // 0.49 → 0
        assertThat(new FeeRule(290, 30).feeFor(6_001)).isEqualTo(204);
        assertThat(new FeeRule(0, 500).feeFor(300)).isEqualTo(300); // never more than the capture
        assertThat(FeeRule.NONE.feeFor(Long.MAX_VALUE)).isZero();
        assertThatThrownBy(() -> new FeeRule(10_001, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FeeRule(0, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
