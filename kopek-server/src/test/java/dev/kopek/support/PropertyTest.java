package dev.kopek.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The property runner finds, shrinks, reports and replays; its generators reach their edges. */
class PropertyTest {

    @Test
    void aPropertyThatHoldsRunsEveryTryAndMeetsBothEnds() {
        List<Long> seen = new ArrayList<>();
        Property.check(300, Gen.longs(-5, 1_000_000), seen::add);

        assertThat(seen).hasSize(300).startsWith(-5L, 1_000_000L).contains(0L, -4L, 999_999L);
    }

    @Test
    void aNumberIsShrunkToTheSmallestThatFails() {
        AssertionError failure = catchThrowableOfType(
                AssertionError.class,
                () -> Property.check(
                        1_000,
                        Gen.longs(0, 1_000_000_000_000L),
                        n -> assertThat(n).isLessThan(1_000)));

        assertThat(failure.getMessage())
                .contains("PropertyTest.")
                .contains("shrunk counterexample")
                .contains("counterexample (")
                .contains("): 1000\n")
                .contains("replay: -Dkopek.property.seed=");
    }

    @Test
    void aListIsShrunkToTheElementsThatMatter() {
        AssertionError failure = catchThrowableOfType(
                AssertionError.class,
                () -> Property.check(
                        1_000,
                        Gen.ints(0, 100).list(0, 50),
                        list -> assertThat(list).doesNotContain(7).hasSizeLessThan(40)));

        assertThat(failure.getMessage()).containsAnyOf("): [7]\n", "): " + zeros(40) + "\n");
    }

    @Test
    void theSameSeedReplaysTheSameCounterexample() {
        Gen<List<Integer>> lists = Gen.ints(0, 1_000).list(1, 20);
        Property.Check<List<Integer>> sumBelow = list ->
                assertThat(list.stream().mapToInt(Integer::intValue).sum()).isLessThan(3_000);

        AssertionError first =
                catchThrowableOfType(AssertionError.class, () -> Property.check(42, 500, lists, sumBelow));
        AssertionError again =
                catchThrowableOfType(AssertionError.class, () -> Property.check(42, 500, lists, sumBelow));

        assertThat(first.getMessage()).contains("(seed 42)");
        assertThat(withoutCaller(first)).isEqualTo(withoutCaller(again));
    }

    @Test
    void onlyTheSameKindOfFailureCountsWhileShrinking() {
        AssertionError failure = catchThrowableOfType(
                AssertionError.class,
                () -> Property.check(500, Gen.ints(0, 1_000), n -> {
                    // Halving from 1,000 passes 250: were another failure taken for this one, 200 would be the answer.
                    if (n >= 200 && n < 300) {
                        throw new IllegalStateException("another failure between 200 and 300");
                    }
                    assertThat(n).isLessThan(500);
                }));

        assertThat(failure.getMessage()).contains("): 500\n");
    }

    @Test
    void generatorsReachTheirEdgesAndNothingBeyond() {
        AtomicInteger empty = new AtomicInteger();
        AtomicInteger nulls = new AtomicInteger();
        Gen<Map<String, String>> maps = Gen.maps(Gen.strings(Gen.ALPHA, 1, 8), Gen.strings(Gen.LOWER, 0, 3), 5)
                .orNull(4);
        Property.check(2_000, maps, map -> {
            if (map == null) {
                nulls.incrementAndGet();
                return;
            }
            empty.addAndGet(map.isEmpty() ? 1 : 0);
            assertThat(map.size()).isBetween(0, 5);
            assertThat(map.keySet()).allSatisfy(k -> assertThat(k).hasSizeBetween(1, 8));
        });
        assertThat(nulls).hasPositiveValue();
        assertThat(empty).hasPositiveValue();

        List<String> ops = new ArrayList<>();
        Property.check(2_000, Gen.frequency(List.of(Map.entry(9, "often"), Map.entry(1, "rare"))), ops::add);
        assertThat(ops.stream().filter("rare"::equals).count()).isBetween(50L, 600L);
        assertThatThrownBy(() -> Gen.longs(2, 1).draw(Choices.lowest())).isInstanceOf(IllegalArgumentException.class);
        assertThat(Gen.longs(Long.MIN_VALUE, Long.MAX_VALUE).draw(Choices.highest()))
                .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void shrinkingDropsChunksUntilNothingMoreCanGo() {
        List<Integer> items = IntStream.range(0, 100).boxed().toList();
        List<Integer> shrunk = Shrink.dropChunks(items, list -> list.contains(13) && list.contains(77), () -> true);

        assertThat(shrunk).containsExactly(13, 77);
    }

    /** The report without its first words, which name the lambda that called the runner. */
    private static String withoutCaller(AssertionError failure) {
        return failure.getMessage().substring(failure.getMessage().indexOf(" failed on try"));
    }

    private static String zeros(int n) {
        return IntStream.range(0, n).mapToObj(i -> "0").toList().toString();
    }
}
