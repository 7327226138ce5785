package dev.kopek.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.events.MoneyMovement.Kind;
import dev.kopek.ledger.domain.Line;
import dev.kopek.ledger.domain.Posting;
import dev.kopek.ledger.domain.PostingRules;
import dev.kopek.ledger.domain.Side;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/** Every arm of the posting table yields a balanced posting of positive entries, for any consistent inputs. */
class PostingRulesTest {

    @Property(tries = 1_000)
    void everyMovementPostsBalancedPositiveEntries(
            @ForAll Kind kind,
            @ForAll @LongRange(min = 1, max = Long.MAX_VALUE / 4) long amount,
            @ForAll @LongRange(min = 0, max = 10_000) long feeSeed,
            @ForAll @LongRange(min = 0, max = 10_000) long holdSeed) {
        long fee = kind == Kind.CAPTURED ? amount / 10_000 * feeSeed / 10_000 : 0;
        long hold = amount / 10_000 * holdSeed / 10_000;

        Optional<Posting> posting = PostingRules.forMovement(kind, amount, fee, hold);

        if (kind == Kind.AUTHORIZATION_RELEASED && hold == 0) {
            assertThat(posting).isEmpty();
            return;
        }
        List<Line> lines = posting.orElseThrow().lines();
        assertThat(lines.size()).isBetween(2, 5);
        assertThat(lines).allSatisfy(l -> assertThat(l.amountMinor()).isPositive());
        long net = lines.stream()
                .mapToLong(l -> l.side() == Side.DEBIT ? l.amountMinor() : -l.amountMinor())
                .sum();
        assertThat(net).isZero();
        assertThat(posting.get().reversed().reversed()).isEqualTo(posting.get());
    }

    @Example
    void inconsistentInputsAreBugs() {
        assertThatThrownBy(() -> PostingRules.forMovement(Kind.CAPTURED, 100, 101, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PostingRules.forMovement(Kind.REFUND_RESERVED, 100, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PostingRules.forMovement(Kind.CAPTURED, 100, 0, 101))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Posting(List.of(
                        new Line(dev.kopek.ledger.domain.AccountType.PSP_RECEIVABLE, Side.DEBIT, 5),
                        new Line(dev.kopek.ledger.domain.AccountType.MERCHANT_PAYABLE, Side.CREDIT, 4))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unbalanced");
    }
}
