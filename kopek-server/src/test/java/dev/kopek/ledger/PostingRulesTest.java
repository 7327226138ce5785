package dev.kopek.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.events.MoneyMovement.Kind;
import dev.kopek.ledger.domain.AccountType;
import dev.kopek.ledger.domain.Line;
import dev.kopek.ledger.domain.Posting;
import dev.kopek.ledger.domain.PostingRules;
import dev.kopek.ledger.domain.Side;
import dev.kopek.support.Gen;
import dev.kopek.support.Property;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every arm of the posting table yields a balanced posting of positive entries, for any consistent inputs. */
class PostingRulesTest {

    /** A movement and what decides its fee and its hold, as fractions (in ten-thousandths) of its amount. */
    record Movement(Kind kind, long amount, long feeSeed, long holdSeed) {}

    @Test
    void everyMovementPostsBalancedPositiveEntries() {
        Gen<Kind> kinds = Gen.of(Kind.class);
        Gen<Long> amounts = Gen.longs(1, Long.MAX_VALUE / 4);
        Gen<Long> seeds = Gen.longs(0, 10_000);
        Property.check(
                1_000,
                c -> new Movement(kinds.draw(c), amounts.draw(c), seeds.draw(c), seeds.draw(c)),
                m -> postsBalancedPositiveEntries(m.kind(), m.amount(), m.feeSeed(), m.holdSeed()));
    }

    private static void postsBalancedPositiveEntries(Kind kind, long amount, long feeSeed, long holdSeed) {
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

    @Test
    void inconsistentInputsAreBugs() {
        assertThatThrownBy(() -> PostingRules.forMovement(Kind.CAPTURED, 100, 101, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PostingRules.forMovement(Kind.REFUND_RESERVED, 100, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PostingRules.forMovement(Kind.CAPTURED, 100, 0, 101))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Posting(List.of(
                        new Line(AccountType.PSP_RECEIVABLE, Side.DEBIT, 5),
                        new Line(AccountType.MERCHANT_PAYABLE, Side.CREDIT, 4))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unbalanced");
    }
}
