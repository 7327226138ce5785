package dev.kopek.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A generator of values for {@link Property}: it builds one value from {@link Choices}, so composing generators is
 * calling them one after another in a lambda ({@code c -> new Body(refs.draw(c), amounts.draw(c))}), and every value
 * shrinks by its choices without a shrinker of its own. Each generator's simplest value is what the low end of its
 * choices builds: the minimum, the first constant, the shortest list, null where null is allowed.
 */
@FunctionalInterface
public interface Gen<T> {

    String ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    String LOWER = "abcdefghijklmnopqrstuvwxyz";
    /** Printable ASCII without the space: {@code !} to {@code ~}. */
    String PRINTABLE = printable();

    T draw(Choices choices);

    default <R> Gen<R> map(Function<? super T, ? extends R> f) {
        return c -> f.apply(draw(c));
    }

    /**
     * Lists of {@code min} to {@code max} elements, of uniformly distributed length. Each element past the minimum
     * is announced by a choice of its own (go on or stop), so dropping an element's choices drops the element.
     */
    default Gen<List<T>> list(int min, int max) {
        return c -> {
            List<T> list = new ArrayList<>();
            while (list.size() < min) {
                list.add(draw(c));
            }
            while (list.size() < max && goOn(c, max - list.size())) {
                list.add(draw(c));
            }
            return list;
        };
    }

    /** {@code null} one time in {@code oneIn}, and as the simplest value. */
    default Gen<T> orNull(int oneIn) {
        return c -> c.between(0, oneIn - 1) == 0 ? null : draw(c);
    }

    /** Whether a list with {@code left} places still free grows: a uniform length needs P = left / (left + 1). */
    private static boolean goOn(Choices c, int left) {
        return c.between(0, left) != 0;
    }

    static Gen<Long> longs(long min, long max) {
        return c -> c.between(min, max);
    }

    static Gen<Integer> ints(int min, int max) {
        return c -> (int) c.between(min, max);
    }

    static Gen<Boolean> booleans() {
        return c -> c.between(0, 1) == 1;
    }

    @SafeVarargs
    static <T> Gen<T> of(T... values) {
        List<T> all = new ArrayList<>();
        for (T value : values) {
            all.add(value);
        }
        return c -> all.get((int) c.between(0, all.size() - 1));
    }

    static <E extends Enum<E>> Gen<E> of(Class<E> type) {
        return of(type.getEnumConstants());
    }

    /** Each value as often as its weight says; the first is the simplest. */
    static <T> Gen<T> frequency(List<Map.Entry<Integer, T>> weighted) {
        int total = weighted.stream().mapToInt(Map.Entry::getKey).sum();
        return c -> {
            long pick = c.between(0, total - 1);
            for (Map.Entry<Integer, T> entry : weighted) {
                pick -= entry.getKey();
                if (pick < 0) {
                    return entry.getValue();
                }
            }
            throw new IllegalStateException("a pick below the total weight always lands");
        };
    }

    /** Strings of {@code minLength} to {@code maxLength} characters taken from {@code alphabet}. */
    static Gen<String> strings(String alphabet, int minLength, int maxLength) {
        Gen<Character> chars = c -> alphabet.charAt((int) c.between(0, alphabet.length() - 1));
        return chars.list(minLength, maxLength).map(list -> {
            StringBuilder text = new StringBuilder();
            list.forEach(text::append);
            return text.toString();
        });
    }

    /** Maps of up to {@code maxSize} entries; a key drawn twice keeps its first value. */
    static <K, V> Gen<Map<K, V>> maps(Gen<K> keys, Gen<V> values, int maxSize) {
        Gen<Map.Entry<K, V>> entries = c -> Map.entry(keys.draw(c), values.draw(c));
        return entries.list(0, maxSize).map(list -> {
            Map<K, V> map = new LinkedHashMap<>();
            list.forEach(e -> map.putIfAbsent(e.getKey(), e.getValue()));
            return map;
        });
    }

    private static String printable() {
        StringBuilder chars = new StringBuilder();
        for (char ch = '!'; ch <= '~'; ch++) {
            chars.append(ch);
        }
        return chars.toString();
    }
}
