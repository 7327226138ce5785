package dev.kopek.platform;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * What Kopek does while its database is away (a failover, a restart, an exhausted pool): every request that meets it
 * is answered 503 {@code database_unavailable} with {@code Retry-After}, and every background worker pauses and
 * resumes by itself. Each such failure is counted in {@code kopek_database_unavailable_total} (by where it happened
 * and why, {@link DatabaseFailures}); the log gets one warning per worker per outage and, for requests, at most one
 * warning every few seconds — no ERROR, no stack trace — and a line when a worker is back.
 */
@Component
public class DatabaseOutages {

    private static final Logger log = LoggerFactory.getLogger(DatabaseOutages.class);

    /** What a client is told to wait: a failover takes seconds, and the client's retry is harmless (same key). */
    public static final String RETRY_AFTER_SECONDS = "1";

    private static final String METER = "kopek.database.unavailable";
    private static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    private static final String UNAVAILABLE = "The database is busy or unavailable; ";
    private static final Duration FIRST_PAUSE = Duration.ofSeconds(1);
    private static final Duration MAX_PAUSE = Duration.ofSeconds(10);
    private static final Duration REQUEST_WARNING_EVERY = Duration.ofSeconds(5);

    private final MeterRegistry meters;
    private final Clock clock;
    private final Map<String, Outage> workers = new ConcurrentHashMap<>();
    private final AtomicLong requestsSinceWarning = new AtomicLong();
    private volatile Instant lastRequestWarning = Instant.MIN;

    DatabaseOutages(MeterRegistry meters, Clock clock) {
        this.meters = meters;
        this.clock = clock;
        // The requests' series exist from the start, so a scrape (and the alert on them) sees zeros, not nothing.
        DatabaseFailures.REASONS.forEach(reason -> meters.counter(METER, "where", "http", "reason", reason));
    }

    /** One worker's outage: since when, how many passes failed, and until when it pauses. */
    private record Outage(Instant since, int failures, Instant pausedUntil) {}

    /**
     * The 503 for {@code request}, which failed because the database is unavailable; empty for any other failure. A
     * request that failed this way wrote nothing, or wrote what its retry with the same key finds. The detail fits
     * the request: a request sent with an {@code Idempotency-Key} is told to send it again with the same key, any
     * other (a read, a PSP's notification) only to send it again.
     */
    public Optional<ApiProblem> problemFor(Throwable failure, HttpServletRequest request) {
        Optional<DatabaseFailures.Unavailable> unavailable = DatabaseFailures.of(failure);
        unavailable.ifPresent(u -> {
            count("http", u);
            warnAboutRequests(u);
        });
        boolean keyed = request.getHeader(IDEMPOTENCY_KEY) != null;
        return unavailable.map(u -> ApiProblem.withHeaders(
                HttpStatus.SERVICE_UNAVAILABLE,
                "database_unavailable",
                keyed
                        ? UNAVAILABLE + "retry with the same Idempotency-Key after Retry-After seconds."
                        : UNAVAILABLE + "retry after Retry-After seconds.",
                Map.of(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS)));
    }

    /** Whether {@code worker} should run a pass now: false while it pauses after the database went away. */
    public boolean mayRun(String worker) {
        Outage outage = workers.get(worker);
        return outage == null || !clock.instant().isBefore(outage.pausedUntil());
    }

    /** A pass of {@code worker} went through: an outage it was in is over, and the log says so once. */
    public void succeeded(String worker) {
        Outage ended = workers.remove(worker);
        if (ended != null) {
            log.info(
                    "{}: database available again after {} failed passes over {} s; resumed",
                    worker,
                    ended.failures(),
                    Duration.between(ended.since(), clock.instant()).toSeconds());
        }
    }

    /**
     * A pass of {@code worker} failed. True when the database was unavailable: counted, warned about once per
     * outage, and the worker pauses (1 s, doubling to 10 s) — nothing for the caller to log. False for any other
     * failure, which the caller logs as the error it is.
     */
    public boolean failed(String worker, Throwable failure) {
        Optional<DatabaseFailures.Unavailable> unavailable = DatabaseFailures.of(failure);
        if (unavailable.isEmpty()) {
            return false;
        }
        DatabaseFailures.Unavailable u = unavailable.get();
        count(worker, u);
        Instant now = clock.instant();
        Outage outage = workers.compute(worker, (name, before) -> {
            int failures = before == null ? 1 : before.failures() + 1;
            Duration pause = FIRST_PAUSE.multipliedBy(1L << Math.min(failures - 1, 4));
            return new Outage(
                    before == null ? now : before.since(),
                    failures,
                    now.plus(pause.compareTo(MAX_PAUSE) > 0 ? MAX_PAUSE : pause));
        });
        if (outage.failures() == 1) {
            log.warn(
                    "{}: database unavailable ({}: {}); pausing, it resumes by itself once the database is back",
                    worker,
                    u.reason(),
                    u.detail());
        } else {
            log.debug("{}: database still unavailable ({}), pass {} failed", worker, u.reason(), outage.failures());
        }
        return true;
    }

    /** Counts a failure met somewhere other than a request or a worker's pass (a payment's phase 3 waiting on). */
    public void counted(String where, Throwable failure) {
        DatabaseFailures.of(failure).ifPresent(u -> count(where, u));
    }

    private void count(String where, DatabaseFailures.Unavailable u) {
        meters.counter(METER, "where", where, "reason", u.reason()).increment();
    }

    /** One line every few seconds however many requests fail: an outage under load is thousands of them. */
    private void warnAboutRequests(DatabaseFailures.Unavailable u) {
        requestsSinceWarning.incrementAndGet();
        Instant now = clock.instant();
        if (now.isBefore(lastRequestWarning.plus(REQUEST_WARNING_EVERY))) {
            return;
        }
        lastRequestWarning = now;
        long since = requestsSinceWarning.getAndSet(0);
        log.warn(
                "database unavailable ({}: {}): answered 503 database_unavailable with Retry-After to {} request(s)"
                        + " since the last such line",
                u.reason(),
                u.detail(),
                since);
    }
}
