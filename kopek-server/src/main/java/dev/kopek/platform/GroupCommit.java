package dev.kopek.platform;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.IntConsumer;

/**
 * Group commit: concurrent callers' units of work reach the database together, as one statement and one commit, so
 * that what PostgreSQL pays per statement (executor start-up over the indexes, plan checks) and per commit (the WAL
 * flush) is paid once per batch instead of once per caller.
 *
 * <p>No timer decides a batch. A caller that finds a lane free runs a batch at once with whatever is queued — alone,
 * when nothing is — so a lone request waits for nothing. Callers that arrive while every lane's batch is in the
 * database queue up; when a batch ends, its leader hands the lane to the oldest queued caller that holds none, whose
 * own thread then runs the next batch of up to {@code maxBatch} queued callers. Each caller gets its own result, as
 * the batch's function gave it for that caller's input; a failure of the function itself is thrown to every caller of
 * the batch.
 *
 * @param <I> one caller's input
 * @param <O> one caller's result
 */
public final class GroupCommit<I, O> {

    private final int maxBatch;
    private final Function<List<I>, List<O>> work;
    private final IntConsumer batchSizes;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Entry<I, O>> queue = new ArrayDeque<>();
    private int freeLanes;
    private long submitted;

    /**
     * {@code work} is given the inputs of one batch and returns one result per input, in the same order;
     * {@code batchSizes} is told each batch's size before it runs.
     */
    public GroupCommit(int lanes, int maxBatch, Function<List<I>, List<O>> work, IntConsumer batchSizes) {
        if (lanes < 1 || maxBatch < 1) {
            throw new IllegalArgumentException("lanes and maxBatch must be at least 1");
        }
        this.freeLanes = lanes;
        this.maxBatch = maxBatch;
        this.work = work;
        this.batchSizes = batchSizes;
    }

    /** Runs {@code input} in the next batch a lane takes, and returns its own result. */
    public O submit(I input) {
        Entry<I, O> mine = new Entry<>(input, lock.newCondition());
        boolean leading;
        lock.lock();
        try {
            queue.addLast(mine);
            submitted++;
            leading = freeLanes > 0;
            if (leading) {
                freeLanes--;
                mine.lane = true;
            } else {
                while (!mine.done && !mine.lane) {
                    mine.changed.awaitUninterruptibly();
                }
                leading = mine.lane;
            }
        } finally {
            lock.unlock();
        }
        if (leading) {
            lead(mine);
        }
        return resultOf(mine);
    }

    /** Runs batches on this caller's lane until its own input has run (in its batch or another lane's). */
    private void lead(Entry<I, O> mine) {
        while (true) {
            List<Entry<I, O>> batch = takeOrFreeLane(mine);
            if (batch.isEmpty()) {
                return; // the lane is free again; this caller's own input is in another lane's batch
            }
            run(batch);
            if (isDone(mine)) {
                handOff();
                return;
            }
        }
    }

    /** Up to {@code maxBatch} queued entries, oldest first; none (and the lane freed) when nothing is queued. */
    private List<Entry<I, O>> takeOrFreeLane(Entry<I, O> mine) {
        lock.lock();
        try {
            List<Entry<I, O>> batch = new ArrayList<>(Math.min(queue.size(), maxBatch));
            while (batch.size() < maxBatch && !queue.isEmpty()) {
                batch.add(queue.pollFirst());
            }
            if (batch.isEmpty()) {
                freeLanes++;
                mine.lane = false;
            }
            return batch;
        } finally {
            lock.unlock();
        }
    }

    private void run(List<Entry<I, O>> batch) {
        List<I> inputs = batch.stream().map(e -> e.input).toList();
        List<O> results;
        try {
            batchSizes.accept(inputs.size());
            results = work.apply(inputs);
            if (results.size() != inputs.size()) {
                throw new IllegalStateException(
                        "a batch of " + inputs.size() + " inputs gave " + results.size() + " results");
            }
        } catch (RuntimeException | Error e) {
            // Every caller of the batch gets the failure from its own thread; the lane goes on (no caller is lost).
            complete(batch, null, e);
            return;
        }
        complete(batch, results, null);
    }

    private void complete(List<Entry<I, O>> batch, List<O> results, Throwable failure) {
        lock.lock();
        try {
            for (int i = 0; i < batch.size(); i++) {
                Entry<I, O> entry = batch.get(i);
                entry.result = results == null ? null : results.get(i);
                entry.failure = failure;
                entry.done = true;
                entry.changed.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** This leader's lane goes to the oldest queued caller holding none, or back to the free lanes. */
    private void handOff() {
        lock.lock();
        try {
            for (Entry<I, O> waiting : queue) {
                if (!waiting.lane) {
                    waiting.lane = true;
                    waiting.changed.signal();
                    return;
                }
            }
            freeLanes++;
        } finally {
            lock.unlock();
        }
    }

    private boolean isDone(Entry<I, O> entry) {
        lock.lock();
        try {
            return entry.done;
        } finally {
            lock.unlock();
        }
    }

    /** The caller's own result, once a batch (of any lane) has run its input. */
    private O resultOf(Entry<I, O> entry) {
        lock.lock();
        try {
            while (!entry.done) {
                entry.changed.awaitUninterruptibly();
            }
            if (entry.failure instanceof RuntimeException e) {
                throw e;
            }
            if (entry.failure instanceof Error e) {
                throw e;
            }
            return entry.result;
        } finally {
            lock.unlock();
        }
    }

    /**
     * How many callers have submitted so far: for tests that hold a batch in the database and wait until the others
     * have queued behind it.
     */
    public long submitted() {
        lock.lock();
        try {
            return submitted;
        } finally {
            lock.unlock();
        }
    }

    /** One caller: its input, and its result once a batch ran it. Guarded by the lock. */
    private static final class Entry<I, O> {
        private final I input;
        private final Condition changed;
        private boolean lane;
        private boolean done;
        private O result;
        private Throwable failure;

        Entry(I input, Condition changed) {
            this.input = input;
            this.changed = changed;
        }
    }
}
