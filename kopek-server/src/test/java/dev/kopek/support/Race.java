package dev.kopek.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Many threads released together by a barrier, so a race is a race and not a lucky schedule. */
public final class Race {

    private Race() {}

    @FunctionalInterface
    public interface Racer<T> {
        T run(int index) throws Exception;
    }

    /** Runs {@code racer} on {@code threads} virtual threads started at the same instant; results in index order. */
    public static <T> List<T> of(int threads, Racer<T> racer) throws Exception {
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Future<T>> futures = new ArrayList<>();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < threads; i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    start.await();
                    return racer.run(index);
                }));
            }
        }
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
            results.add(future.get());
        }
        return results;
    }
}
