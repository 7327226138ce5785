package dev.kopek.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.ledger.domain.FeeRule;
import java.math.BigInteger;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** The one rounding rule of fees, against exact arithmetic, over the whole range of amounts. */
class FeeRuleTest {

    @Property(tries = 2_000)
    void feeIsHalfUpOfTheBasisPointsPlusTheFixedPartCappedAtTheAmount(
            @ForAll @LongRange(min = 1, max = Long.MAX_VALUE) long amount,
            @ForAll @IntRange(min = 0, max = FeeRule.MAX_BPS) int bps,
            @ForAll @LongRange(min = 0, max = FeeRule.MAX_FIXED_MINOR) long fixed) {
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

    @Property(tries = 500)
    void aLargerCaptureNeverPaysASmallerFee(
            @ForAll @LongRange(min = 1, max = 1_000_000_000_000L) long amount,
            @ForAll @IntRange(min = 0, max = FeeRule.MAX_BPS) int bps,
            @ForAll @LongRange(min = 0, max = 10_000) long fixed) {
        FeeRule rule = new FeeRule(bps, fixed);
        assertThat(rule.feeFor(amount + 1)).isGreaterThanOrEqualTo(rule.feeFor(amount));
    }

    @Example
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
