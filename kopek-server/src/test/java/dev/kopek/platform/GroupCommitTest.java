package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Batches form from what is queued, never from a timer: a lone caller runs alone, callers that arrive while a batch
 * is in the database run together in the next one, each with its own result. No test here waits on a clock: a batch
 * is held by a latch, and the callers behind it are counted.
 */
class GroupCommitTest {

    private final List<Integer> sizes = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch held = new CountDownLatch(1);

    @Test
    void aLoneCallerRunsAloneAtOnce() {
        GroupCommit<Integer, Integer> commit = new GroupCommit<>(1, 64, doubled(null), sizes::add);

        assertThat(commit.submit(21)).isEqualTo(42);
        assertThat(commit.submit(5)).isEqualTo(10);
        assertThat(sizes).containsExactly(1, 1);
    }

    @Test
    void callersQueuedBehindARunningBatchRunTogetherWithTheirOwnResults() throws Exception {
        tenCallersBehindAHeldBatch(64);

        assertThat(sizes).containsExactly(1, 10);
    }

    @Test
    void aBatchTakesAtMostTheCapAndTheRestFollow() throws Exception {
        tenCallersBehindAHeldBatch(4);

        assertThat(sizes).containsExactly(1, 4, 4, 2);
    }

    /**
     * Input 0 runs alone and its batch is held in "the database" by a latch; inputs 1 to 10 submit behind it; then
     * the batch is released. Each caller must get its own input doubled.
     */
    private void tenCallersBehindAHeldBatch(int maxBatch) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        GroupCommit<Integer, Integer> commit = new GroupCommit<>(1, maxBatch, doubled(release), sizes::add);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Integer> first = threads.submit(() -> commit.submit(0));
            held.await();
            List<Future<Integer>> behind = new ArrayList<>();
            for (int i = 1; i <= 10; i++) {
                int input = i;
                behind.add(threads.submit(() -> commit.submit(input)));
            }
            awaitSubmitted(commit, 11);
            release.countDown();

            assertThat(first.get()).isZero();
            for (int i = 0; i < behind.size(); i++) {
                assertThat(behind.get(i).get()).isEqualTo(2 * (i + 1));
            }
        }
    }

    @Test
    void aFailedBatchFailsEachOfItsCallersAndTheLaneGoesOn() {
        GroupCommit<Integer, Integer> commit = new GroupCommit<>(
                1,
                64,
                inputs -> {
                    if (inputs.contains(13)) {
                        throw new IllegalStateException("refused");
                    }
                    return inputs.stream().map(i -> 2 * i).toList();
                },
                sizes::add);

        assertThatThrownBy(() -> commit.submit(13)).hasMessage("refused");
        assertThat(commit.submit(1)).isEqualTo(2);
    }

    @Test
    void aResultMissingForAnInputFailsTheBatchInsteadOfAnsweringTheWrongCaller() {
        GroupCommit<Integer, Integer> commit = new GroupCommit<>(1, 64, inputs -> List.of(), sizes::add);

        assertThatThrownBy(() -> commit.submit(1)).hasMessageContaining("gave 0 results");
    }

    /** Doubles each input; the batch of input 0 tells {@link #held} it started, then waits for {@code release}. */
    private Function<List<Integer>, List<Integer>> doubled(CountDownLatch release) {
        return inputs -> {
            if (release != null && inputs.contains(0)) {
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            return inputs.stream().map(i -> 2 * i).toList();
        };
    }

    /** Waits, without a clock, until {@code count} callers have submitted (the held batch's and those behind it). */
    private static void awaitSubmitted(GroupCommit<?, ?> commit, int count) {
        while (commit.submitted() != count) {
            Thread.onSpinWait();
            Thread.yield();
        }
    }
}
