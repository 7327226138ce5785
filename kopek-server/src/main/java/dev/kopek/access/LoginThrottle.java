package dev.kopek.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Limits guessing at the console's login form: failed log-ins are counted per client address and per identity an
 * attempt names (a {@code kad_…} token's public prefix), each in a fixed window; past either limit, attempts are
 * refused without looking at the token until the window ends. Only failures count, so people who know their token
 * are never slowed down, and a refused attempt learns nothing.
 *
 * <p>Counters live in this instance's memory: behind a balancer of N instances an address gets N times the limit,
 * which still turns guessing a 256-bit token from hopeless into more hopeless. The map is bounded; when it is full
 * of live windows (a spray from very many addresses), new addresses are refused until windows end.
 */
@Component
public class LoginThrottle {

    static final int MAX_TRACKED = 10_000;
    /** A named identity's token as {@code AdminIdentities} issues it; its first 12 characters are its prefix. */
    private static final int IDENTITY_PREFIX = 12;

    private final Clock clock;
    private final int perAddress;
    private final int perIdentity;
    private final Duration window;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    LoginThrottle(
            Clock clock,
            @Value("${kopek.console.login-failures-per-address:20}") int perAddress,
            @Value("${kopek.console.login-failures-per-identity:10}") int perIdentity,
            @Value("${kopek.console.login-window:15m}") Duration window) {
        if (perAddress < 1 || perIdentity < 1 || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("console login limits must be positive");
        }
        this.clock = clock;
        this.perAddress = perAddress;
        this.perIdentity = perIdentity;
        this.window = window;
    }

    /** Whether an attempt may be checked at all, and if not, for how many seconds more it will be refused. */
    public sealed interface Verdict {
        record Allowed() implements Verdict {}

        record Refused(long retryAfterSeconds) implements Verdict {}
    }

    public Verdict check(String address, String token) {
        Instant now = clock.instant();
        long wait = Math.max(
                waitSeconds(addressKey(address), perAddress, now),
                identityKey(token) == null ? 0 : waitSeconds(identityKey(token), perIdentity, now));
        if (wait == 0 && windows.size() >= MAX_TRACKED && !windows.containsKey(addressKey(address))) {
            windows.values().removeIf(w -> !w.liveAt(now));
            if (windows.size() >= MAX_TRACKED) {
                wait = window.toSeconds();
            }
        }
        return wait == 0 ? new Verdict.Allowed() : new Verdict.Refused(wait);
    }

    /** Counts a failed attempt against its address and, when it names one, its identity. */
    public void failed(String address, String token) {
        Instant now = clock.instant();
        count(addressKey(address), now);
        String identity = identityKey(token);
        if (identity != null) {
            count(identity, now);
        }
    }

    /**
     * The identity an attempt names: a token shaped like a named identity's ({@code kad_} and long enough) names
     * the identity with that public prefix. Anything else names no identity (the bootstrap token is one configured
     * secret; counting junk against it would let anyone lock it out from many addresses).
     */
    public static String identityPrefix(String token) {
        return token != null && token.startsWith(AdminIdentities.TOKEN_PREFIX) && token.length() > IDENTITY_PREFIX
                ? token.substring(0, IDENTITY_PREFIX)
                : null;
    }

    private static String identityKey(String token) {
        String prefix = identityPrefix(token);
        return prefix == null ? null : "identity:" + prefix;
    }

    private static String addressKey(String address) {
        return "address:" + address;
    }

    private long waitSeconds(String key, int limit, Instant now) {
        Window current = windows.get(key);
        if (current == null || !current.liveAt(now) || current.failures < limit) {
            return 0;
        }
        return Math.max(1, Duration.between(now, current.ends).toSeconds());
    }

    private void count(String key, Instant now) {
        windows.compute(
                key,
                (k, current) -> current == null || !current.liveAt(now)
                        ? new Window(now.plus(window), 1)
                        : new Window(current.ends, current.failures + 1));
    }

    private record Window(Instant ends, int failures) {
        boolean liveAt(Instant now) {
            return now.isBefore(ends);
        }
    }
}
