package dev.kopek.idempotency;

import dev.kopek.money.MerchantId;
import dev.kopek.money.PrefixedId;
import dev.kopek.platform.Db;
import dev.kopek.platform.LogContext;
import dev.kopek.platform.RecoveryMeters;
import dev.kopek.platform.SqlPart;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The key table. Every method is one statement whose WHERE clause is the rule: claim only a new key, reclaim
 * only an expired lease with the same fingerprint, write an outcome only as the current attempt (L1, L4).
 * Callers run these inside their own short transactions.
 */
@Repository
@EnableConfigurationProperties(IdempotencyProperties.class)
public class IdempotencyKeys {

    /** Parks a key for a person: no lease ever expires, so no worker picks it up again. */
    public static final Instant PARKED = Instant.parse("9999-12-31T00:00:00Z");

    private static final int MAX_CLAIM_ROUNDS = 4;

    private final MeterRegistry meters;
    private final JdbcClient jdbc;
    private final Clock clock;
    private final IdempotencyProperties properties;

    IdempotencyKeys(JdbcClient jdbc, Clock clock, IdempotencyProperties properties, MeterRegistry meters) {
        this.meters = meters;
        this.jdbc = jdbc;
        this.clock = clock;
        this.properties = properties;
    }

    public IdempotencyProperties properties() {
        return properties;
    }

    /**
     * Phase 1: claim a new key for {@code newResourceId}, or decide what an existing key allows. A losing race is
     * re-read and decided again, so the answer always reflects a committed state.
     */
    public Claim claim(ClientKey ck, String requestHash, UUID newResourceId) {
        LogContext.put(LogContext.MERCHANT, ck.merchant());
        LogContext.put(LogContext.KEY_HASH, ck.hash());
        Claim claim = decideClaim(ck, requestHash, newResourceId);
        if (claim instanceof Claim.Owned owned) {
            logContext(ck, owned.attempt(), owned.resourceId());
        }
        return claim;
    }

    /**
     * Puts the key's fields into this thread's log context: the payment's id for a payment, the operation's id for
     * a capture, void or refund (which the caller adds its payment to).
     */
    public static void logContext(ClientKey ck, int attempt, UUID resourceId) {
        LogContext.put(LogContext.MERCHANT, ck.merchant());
        LogContext.put(LogContext.KEY_HASH, ck.hash());
        LogContext.put(LogContext.ATTEMPT, attempt);
        if (ck.operation().equals("payment.create")) {
            LogContext.put(LogContext.PAYMENT, PrefixedId.format("pay", resourceId));
        } else {
            LogContext.put(LogContext.OPERATION, resourceId);
        }
    }

    private Claim decideClaim(ClientKey ck, String requestHash, UUID newResourceId) {
        for (int round = 0; round < MAX_CLAIM_ROUNDS; round++) {
            Instant now = clock.instant();
            if (insert(ck, requestHash, newResourceId, now)) {
                return new Claim.Owned(1, false, newResourceId);
            }
            Optional<KeyRecord> existing = find(ck);
            if (existing.isEmpty()) {
                continue; // deleted by cleanup between the insert and the read: claim afresh
            }
            Optional<Claim> decided = decide(existing.get(), requestHash, now);
            if (decided.isPresent()) {
                return decided.get();
            }
        }
        return new Claim.InFlight(Duration.ofSeconds(1));
    }

    private Optional<Claim> decide(KeyRecord key, String requestHash, Instant now) {
        if (!key.requestHash().equals(requestHash)) {
            return Optional.of(new Claim.Mismatch());
        }
        boolean leaseLive = key.leaseUntil().isAfter(now);
        return switch (key.status()) {
            case COMPLETED -> Optional.of(new Claim.Replay(key.responseCode(), key.responseBody()));
            case IN_PROGRESS ->
                leaseLive
                        ? Optional.of(new Claim.InFlight(retryAfter(key.leaseUntil(), now)))
                        : takeOver(key, now).map(attempt -> new Claim.Owned(attempt, true, key.resourceId()));
            case AWAITING_RESULT ->
                leaseLive
                        ? Optional.of(new Claim.Awaiting(key.resourceId()))
                        : takeOver(key, now).map(attempt -> new Claim.Owned(attempt, true, key.resourceId()));
        };
    }

    /**
     * The one Retry-After rule for a key another owner holds: the rest of its lease, 1–60 s. Every operation
     * answers 409 with this, whichever path found the key busy.
     */
    public static Duration retryAfter(Instant leaseUntil, Instant now) {
        long seconds = Math.max(1, Duration.between(now, leaseUntil).toSeconds());
        return Duration.ofSeconds(Math.min(seconds, 60));
    }

    private boolean insert(ClientKey ck, String requestHash, UUID resourceId, Instant now) {
        return jdbc.sql(CLAIM.formatted("VALUES (" + CLAIM_VALUES + ")") + CLAIM_IF_NEW)
                        .params(claimParams(ck, requestHash, resourceId, now))
                        .update()
                == 1;
    }

    /**
     * Phase 1's claim of a new key as a CTE named {@code claimed} of the caller's statement: one row (the key's
     * resource) when this statement claimed the key, none when the key exists (then {@link #claim} decides). For a
     * statement that also inserts the resource and its event, in autocommit: one round trip for all of phase 1.
     */
    public SqlPart claimPart(ClientKey ck, String requestHash, UUID resourceId, Instant now) {
        LogContext.put(LogContext.MERCHANT, ck.merchant());
        LogContext.put(LogContext.KEY_HASH, ck.hash());
        return new SqlPart(
                "claimed AS (" + CLAIM.formatted("VALUES (" + CLAIM_VALUES + ")") + CLAIM_IF_NEW
                        + " RETURNING resource_id)",
                claimParams(ck, requestHash, resourceId, now));
    }

    /** One new key of a batch: {@link #claimAllPart}'s row, as {@link #claimPart}'s arguments. */
    public record NewClaim(ClientKey ck, String requestHash, UUID resourceId, Instant now) {}

    /**
     * {@link #claimPart} for many keys in one statement (a batch of phase 1s): a CTE named {@code claimed} that
     * inserts each key that does not exist yet and yields its {@code resource_id}. A key that exists, or that an
     * earlier row of the same batch claims, is skipped and yields nothing; the caller decides those alone.
     */
    public SqlPart claimAllPart(List<NewClaim> claims) {
        int n = claims.size();
        UUID[] merchants = new UUID[n];
        String[] operations = new String[n];
        String[] keys = new String[n];
        String[] hashes = new String[n];
        UUID[] resources = new UUID[n];
        String[] nows = new String[n];
        for (int i = 0; i < n; i++) {
            NewClaim c = claims.get(i);
            merchants[i] = c.ck().merchant().value();
            operations[i] = c.ck().operation();
            keys[i] = c.ck().key();
            hashes[i] = c.requestHash();
            resources[i] = c.resourceId();
            nows[i] = Db.micros(c.now()).toString();
        }
        Map<String, Object> params = new HashMap<>();
        params.put("keys_merchant", merchants);
        params.put("keys_operation", operations);
        params.put("keys_key", keys);
        params.put("keys_hash", hashes);
        params.put("keys_resource", resources);
        params.put("keys_now", nows);
        params.put("keys_lease", properties.lease().toNanos() / 1000);
        params.put("keys_retention", properties.retention().toNanos() / 1000);
        return new SqlPart(
                "claimed AS (" + CLAIM.formatted(CLAIM_ALL) + CLAIM_IF_NEW + " RETURNING resource_id)", params);
    }

    // Timestamps travel as ISO-8601 text and durations as microseconds, so that nothing is rounded on the way.
    private static final String CLAIM_ALL = """
            SELECT k.merchant, k.operation, k.key, k.hash, 'IN_PROGRESS', 1,
                   k.now + :keys_lease * INTERVAL '1 microsecond', k.now + :keys_retention * INTERVAL '1 microsecond',
                   k.resource, k.now, k.now
              FROM unnest(CAST(:keys_merchant AS uuid[]), CAST(:keys_operation AS text[]), CAST(:keys_key AS text[]),
                          CAST(:keys_hash AS text[]), CAST(:keys_resource AS uuid[]), CAST(:keys_now AS timestamptz[]))
                   AS k(merchant, operation, key, hash, resource, now)""";

    private static final String CLAIM = """
            INSERT INTO idempotency_keys (merchant_id, operation, idempotency_key, request_hash, status, attempt,
                                          lease_until, expires_at, resource_id, created_at, updated_at)
            %s
            """;
    private static final String CLAIM_IF_NEW = " ON CONFLICT (merchant_id, operation, idempotency_key) DO NOTHING";
    private static final String CLAIM_VALUES = """
            CAST(:key_merchant AS uuid), :key_operation, :key_key, :key_hash, 'IN_PROGRESS', 1,
            CAST(:key_lease AS timestamptz), CAST(:key_expires AS timestamptz), CAST(:key_resource AS uuid),
            CAST(:key_now AS timestamptz), CAST(:key_now AS timestamptz)""";

    /**
     * For a phase 1 whose claim must follow its reservation (the reservation decides whether anything is stored):
     * a CTE named {@code key_free}, one row when no key exists under {@code ck}, for the reservation to require.
     * With {@link #claimAfterPart} after it: a racing claim of the same key fails the whole statement on the key's
     * primary key (a {@code DuplicateKeyException}), and nothing of it is written.
     */
    public static SqlPart freePart(ClientKey ck) {
        return new SqlPart(
                """
                key_free AS (SELECT 1 WHERE NOT EXISTS (
                    SELECT 1 FROM idempotency_keys WHERE merchant_id = CAST(:free_merchant AS uuid)
                       AND operation = :free_operation AND idempotency_key = :free_key))""",
                Map.of("free_merchant", ck.merchant().value(), "free_operation", ck.operation(), "free_key", ck.key()));
    }

    /**
     * The claim as a CTE named {@code claimed} (column {@code resource_id}), made once for each row of the CTE
     * {@code source}, with no {@code ON CONFLICT}: see {@link #freePart}.
     */
    public SqlPart claimAfterPart(ClientKey ck, String requestHash, UUID resourceId, Instant now, String source) {
        LogContext.put(LogContext.MERCHANT, ck.merchant());
        LogContext.put(LogContext.KEY_HASH, ck.hash());
        return new SqlPart(
                "claimed AS (" + CLAIM.formatted("SELECT " + CLAIM_VALUES + " FROM " + source)
                        + " RETURNING resource_id)",
                claimParams(ck, requestHash, resourceId, now));
    }

    /**
     * {@link #claimAfterPart} for a kind whose client is answered in phase 1 (a refund's 202): the key is stored
     * completed with that answer at once, so a retry replays it; the work runs under a key of its own
     * ({@link #openAfterPart}).
     */
    public SqlPart answeredAfterPart(
            ClientKey ck, String requestHash, UUID resourceId, Instant now, String source, int code, String body) {
        LogContext.put(LogContext.MERCHANT, ck.merchant());
        LogContext.put(LogContext.KEY_HASH, ck.hash());
        Map<String, Object> params = claimParams(ck, requestHash, resourceId, now);
        params.put("key_code", code);
        params.put("key_body", body);
        return new SqlPart("claimed AS (" + ANSWERED.formatted(source) + " RETURNING resource_id)", params);
    }

    private static final String ANSWERED = """
            INSERT INTO idempotency_keys (merchant_id, operation, idempotency_key, request_hash, status, attempt,
                                          lease_until, expires_at, resource_id, created_at, updated_at,
                                          response_code, response_body)
            SELECT CAST(:key_merchant AS uuid), :key_operation, :key_key, :key_hash, 'COMPLETED', 1,
                   CAST(:key_lease AS timestamptz), CAST(:key_expires AS timestamptz), CAST(:key_resource AS uuid),
                   CAST(:key_now AS timestamptz), CAST(:key_now AS timestamptz), CAST(:key_code AS integer),
                   CAST(:key_body AS text)
              FROM %s""";

    private Map<String, Object> claimParams(ClientKey ck, String requestHash, UUID resourceId, Instant now) {
        Map<String, Object> params = new HashMap<>();
        params.put("key_merchant", ck.merchant().value());
        params.put("key_operation", ck.operation());
        params.put("key_key", ck.key());
        params.put("key_hash", requestHash);
        params.put("key_lease", Db.at(now.plus(properties.lease())));
        params.put("key_expires", Db.at(now.plus(properties.retention())));
        params.put("key_resource", resourceId);
        params.put("key_now", Db.at(now));
        return params;
    }

    /**
     * Opens a key that nobody owns yet (attempt 0, lease already over) for work a machine starts on its own: the
     * dispatcher or the reconciler takes it over as attempt 1 with {@link #takeOver}, exactly one of them. Runs
     * in the caller's transaction, so the key exists exactly when the work does.
     */
    public void open(ClientKey ck, UUID resourceId) {
        SqlPart open = openParts(ck, resourceId, "VALUES (" + OPEN_VALUES + ")");
        jdbc.sql(open.sql()).params(open.params()).update();
    }

    /**
     * {@link #open} as the CTE {@code opened} of the caller's statement, made once for each row of the CTE
     * {@code source}: the work's key is written in the statement that creates the work.
     */
    public SqlPart openAfterPart(ClientKey ck, UUID resourceId, String source) {
        SqlPart open = openParts(ck, resourceId, "SELECT " + OPEN_VALUES + " FROM " + source);
        return new SqlPart("opened AS (" + open.sql() + " RETURNING resource_id)", open.params());
    }

    /** The key {@link #open} writes, as {@link #takeOver} needs to see it: no read back before the take-over. */
    public KeyRecord opened(ClientKey ck, UUID resourceId) {
        return new KeyRecord(
                ck,
                Fingerprint.of(resourceId.toString()),
                KeyStatus.IN_PROGRESS,
                0,
                Instant.EPOCH,
                resourceId,
                null,
                null,
                clock.instant());
    }

    private static final String OPEN_VALUES = """
            CAST(:open_merchant AS uuid), :open_operation, :open_key, :open_hash, 'IN_PROGRESS', 0,
            CAST(:open_epoch AS timestamptz), CAST(:open_expires AS timestamptz), CAST(:open_resource AS uuid),
            CAST(:open_now AS timestamptz), CAST(:open_now AS timestamptz)""";

    private SqlPart openParts(ClientKey ck, UUID resourceId, String values) {
        Instant now = clock.instant();
        Map<String, Object> params = new HashMap<>();
        params.put("open_merchant", ck.merchant().value());
        params.put("open_operation", ck.operation());
        params.put("open_key", ck.key());
        params.put("open_hash", Fingerprint.of(resourceId.toString()));
        params.put("open_epoch", Db.at(Instant.EPOCH));
        params.put("open_expires", Db.at(now.plus(properties.retention())));
        params.put("open_resource", resourceId);
        params.put("open_now", Db.at(now));
        return new SqlPart(CLAIM.formatted(values), params);
    }

    /**
     * Takes over an unfinished key whose lease ran out, as a new attempt. One statement, so among any number of
     * instances, reconcilers and client retries exactly one wins each expiry; the loser sees zero rows.
     */
    public Optional<Integer> takeOver(KeyRecord seen, Instant now) {
        Optional<Integer> taken = jdbc.sql("""
                UPDATE idempotency_keys
                   SET attempt = attempt + 1, lease_until = :leaseUntil, updated_at = :now
                 WHERE merchant_id = :merchant AND operation = :operation AND idempotency_key = :key
                   AND status IN ('IN_PROGRESS', 'AWAITING_RESULT')
                   AND attempt = :attempt AND lease_until < :now AND request_hash = :hash
                RETURNING attempt
                """)
                .param("leaseUntil", Db.at(now.plus(properties.lease())))
                .param("now", Db.at(now))
                .param("merchant", seen.clientKey().merchant().value())
                .param("operation", seen.clientKey().operation())
                .param("key", seen.clientKey().key())
                .param("attempt", seen.attempt())
                .param("hash", seen.requestHash())
                .query(Integer.class)
                .optional();
        taken.ifPresent(attempt -> RecoveryMeters.reclaimed(
                meters, RecoveryMeters.kindOfKeySpace(seen.clientKey().operation())));
        return taken;
    }

    /**
     * Takes over an unfinished key to record an answer that came from elsewhere — a person's decision, or a
     * PSP notification — whatever its lease. The attempt must still be the one that was seen, so of two such
     * answers only one wins; the owner it displaces becomes stale and its write is refused (L4).
     */
    public Optional<Integer> takeOverWithAnswer(KeyRecord seen) {
        return jdbc.sql("""
                UPDATE idempotency_keys
                   SET attempt = attempt + 1, updated_at = :now
                 WHERE merchant_id = :merchant AND operation = :operation AND idempotency_key = :key
                   AND status IN ('IN_PROGRESS', 'AWAITING_RESULT') AND attempt = :attempt
                RETURNING attempt
                """)
                .param("now", Db.at(clock.instant()))
                .param("merchant", seen.clientKey().merchant().value())
                .param("operation", seen.clientKey().operation())
                .param("key", seen.clientKey().key())
                .param("attempt", seen.attempt())
                .query(Integer.class)
                .optional();
    }

    /**
     * Takes over an unfinished key to record a PSP notification's certain outcome, like
     * {@link #takeOverWithAnswer}, but never from an owner whose lease is live: that owner is about to record the
     * same answer itself, and its client is waiting for it. Empty then; the notification is applied later.
     *
     * <p>The take-over holds the key with a lease of its own until its phase 3, as {@link #takeOver} does (a parked
     * key stays parked, a longer grace stays): with the old lease left run out, a reconciler could take the key from
     * under the notification and leave the PSP's outcome unrecorded (issue 24, defect 1).
     */
    public Optional<Integer> takeOverUnlessOwned(KeyRecord seen) {
        Instant now = clock.instant();
        return jdbc.sql("""
                UPDATE idempotency_keys
                   SET attempt = attempt + 1, lease_until = GREATEST(lease_until, :leaseUntil), updated_at = :now
                 WHERE merchant_id = :merchant AND operation = :operation AND idempotency_key = :key
                   AND attempt = :attempt
                   AND (status = 'AWAITING_RESULT' OR (status = 'IN_PROGRESS' AND lease_until < :now))
                RETURNING attempt
                """)
                .param("leaseUntil", Db.at(now.plus(properties.lease())))
                .param("now", Db.at(now))
                .param("merchant", seen.clientKey().merchant().value())
                .param("operation", seen.clientKey().operation())
                .param("key", seen.clientKey().key())
                .param("attempt", seen.attempt())
                .query(Integer.class)
                .optional();
    }

    /**
     * Phase 3 fence: locks the key row for the rest of the transaction if, and only if, we are still its owner.
     * Empty for a stale owner; otherwise whether the key was parked for a person (so settling it closes a review).
     */
    public Optional<Boolean> holdAsOwner(ClientKey ck, int attempt) {
        Optional<Boolean> held = jdbc.sql(OWNED_ROW)
                .params(ownedRowParams(ck, attempt))
                .query((rs, row) -> isParked(Db.instant(rs, "lease_until")))
                .optional();
        if (held.isEmpty()) {
            RecoveryMeters.staleRejected(meters, RecoveryMeters.kindOfKeySpace(ck.operation()));
        }
        return held;
    }

    /**
     * The same fence as a CTE named {@code fence} (column {@code lease_until}) of the caller's statement, for a
     * resource's phase-3 move in one statement: one row, the key's, locked FOR UPDATE, if and only if {@code attempt}
     * still owns the key. MATERIALIZED, so PostgreSQL takes the key's lock before the statement reads its own rows:
     * the lock order stays key, then resource.
     */
    public static SqlPart fencePart(ClientKey ck, int attempt) {
        return new SqlPart("fence AS MATERIALIZED (" + OWNED_ROW + ")", ownedRowParams(ck, attempt));
    }

    /**
     * The fence (L4), the one place its condition is written: the key's row while {@code attempt} owns it and has not
     * stored an answer. Every write of phase 3 to the key or through it is conditioned on it; its parameters are
     * {@link #ownedRowParams}.
     */
    private static final String OWNED_BY = """
            merchant_id = %s AND operation = %s
               AND idempotency_key = %s AND attempt = %s AND status <> 'COMPLETED'""";

    private static final String OWNED =
            OWNED_BY.formatted("CAST(:fence_merchant AS uuid)", ":fence_operation", ":fence_key", ":fence_attempt");

    private static final String OWNED_ROW = "SELECT lease_until FROM idempotency_keys WHERE " + OWNED + " FOR UPDATE";

    /** One owner of a batch: its key, the attempt that owns it, and the resource it names. */
    public record Owner(ClientKey ck, int attempt) {}

    /**
     * {@link #fencePart} for many keys in one statement (a batch of phase 3s): a CTE named {@code fence} with a row
     * ({@code resource_id}, {@code lease_until}) for each key that its attempt still owns, locked FOR UPDATE in the
     * order of the key table's primary key, so two batches holding some of the same keys wait for each other
     * instead of deadlocking. A key parked for a person yields nothing: its outcome closes a review, which the
     * one-key path does. MATERIALIZED, as {@link #fencePart}; the caller's statement must read it whole before it
     * locks its own rows.
     */
    public static SqlPart fenceEachPart(List<Owner> owners) {
        Map<String, Object> params = ownersParams("fences_", owners);
        params.put("fences_parked", Db.at(PARKED));
        return new SqlPart("fence AS MATERIALIZED (" + OWNED_EACH + ")", params);
    }

    /** The owners as arrays, one element each: {@code <prefix>merchant}, {@code operation}, {@code key}, {@code attempt}. */
    private static Map<String, Object> ownersParams(String prefix, List<Owner> owners) {
        Map<String, Object> params = new HashMap<>();
        params.put(
                prefix + "merchant",
                owners.stream().map(o -> o.ck().merchant().value()).toArray(UUID[]::new));
        params.put(
                prefix + "operation",
                owners.stream().map(o -> o.ck().operation()).toArray(String[]::new));
        params.put(prefix + "key", owners.stream().map(o -> o.ck().key()).toArray(String[]::new));
        params.put(prefix + "attempt", owners.stream().mapToInt(Owner::attempt).toArray());
        return params;
    }

    private static final String OWNED_EACH =
            """
            SELECT resource_id, lease_until
              FROM idempotency_keys,
                   unnest(CAST(:fences_merchant AS uuid[]), CAST(:fences_operation AS text[]),
                          CAST(:fences_key AS text[]), CAST(:fences_attempt AS integer[]))
                   AS o(o_merchant, o_operation, o_key, o_attempt)
             WHERE %s AND lease_until < :fences_parked
             ORDER BY merchant_id, operation, idempotency_key
               FOR UPDATE OF idempotency_keys""".formatted(OWNED_BY.formatted("o.o_merchant", "o.o_operation", "o.o_key", "o.o_attempt"));

    /** One answer of a batch: the owner that stores it, and its body. */
    public record Answer(Owner owner, int responseCode, String responseBody) {}

    /** The CTE of {@link #completeEachWith} that yields the {@code id} of each resource whose answer it stored. */
    public static final String COMPLETED_EACH = "completed";

    /**
     * {@link #completeWith} for many keys in one statement: stores each answer whose attempt still owns its key, and
     * runs {@code alongside} (CTEs that read {@link #COMPLETED_EACH}, one row per stored answer, its column
     * {@code id} the key's resource). How many answers it stored. {@code required} maps CTEs of {@code alongside} to
     * how many rows each must yield when every answer is stored; when one yields another number this throws (a bug:
     * the caller's transaction rolls back).
     */
    public int completeEachWith(List<Answer> answers, SqlPart alongside, Map<String, Integer> required) {
        Instant now = clock.instant();
        Map<String, Object> params = new HashMap<>(alongside.params());
        params.putAll(ownersParams("dones_", answers.stream().map(Answer::owner).toList()));
        params.put("dones_code", answers.stream().mapToInt(Answer::responseCode).toArray());
        params.put("dones_body", answers.stream().map(Answer::responseBody).toArray(String[]::new));
        params.put("dones_expires", Db.at(now.plus(properties.retention())));
        params.put("dones_now", Db.at(now));
        String check = String.join(
                " AND ",
                required.entrySet().stream()
                        .map(cte -> "(SELECT count(*) FROM " + cte.getKey() + ") = " + cte.getValue())
                        .toList());
        return jdbc.sql("WITH " + COMPLETED_EACH + " AS (" + COMPLETE_EACH + "), " + alongside.sql()
                        + "\nSELECT (SELECT count(*) FROM " + COMPLETED_EACH + ") AS stored, "
                        + (check.isEmpty() ? "TRUE" : check) + " AS required")
                .params(params)
                .query((rs, row) -> {
                    if (!rs.getBoolean("required")) {
                        throw new IllegalStateException("stored " + rs.getLong("stored") + " answers but one of "
                                + required + " did not write as many rows");
                    }
                    return (int) rs.getLong("stored");
                })
                .single();
    }

    private static final String COMPLETE_EACH =
            """
            UPDATE idempotency_keys
               SET status = 'COMPLETED', response_code = d.d_code, response_body = d.d_body,
                   expires_at = CAST(:dones_expires AS timestamptz), updated_at = CAST(:dones_now AS timestamptz)
              FROM unnest(CAST(:dones_merchant AS uuid[]), CAST(:dones_operation AS text[]), CAST(:dones_key AS text[]),
                          CAST(:dones_attempt AS integer[]), CAST(:dones_code AS integer[]), CAST(:dones_body AS text[]))
                   AS d(d_merchant, d_operation, d_key, d_attempt, d_code, d_body)
             WHERE %s
            RETURNING resource_id AS id""".formatted(OWNED_BY.formatted("d.d_merchant", "d.d_operation", "d.d_key", "d.d_attempt"));

    private static Map<String, Object> ownedRowParams(ClientKey ck, int attempt) {
        return Map.of(
                "fence_merchant", ck.merchant().value(),
                "fence_operation", ck.operation(),
                "fence_key", ck.key(),
                "fence_attempt", attempt);
    }

    /** Whether a lease is the parking mark: an unknown outcome waiting for a person. */
    public static boolean isParked(Instant leaseUntil) {
        return !leaseUntil.isBefore(PARKED);
    }

    /** Stores the final answer. Only the current attempt can; a stale owner changes nothing. */
    public boolean complete(ClientKey ck, int attempt, int responseCode, String responseBody) {
        return jdbc.sql(COMPLETE)
                        .params(completeParams(ck, attempt, responseCode, responseBody))
                        .update()
                == 1;
    }

    /** The CTE of {@link #completeWith} that yields one row when this attempt stored the answer. */
    public static final String COMPLETED = "completed";

    /**
     * {@link #complete} and {@code alongside} (another module's CTEs, which read {@link #COMPLETED}: one row when this
     * attempt stored the answer, none when it is stale) in one statement: one round trip, and neither write without
     * the other. False for a stale owner, who changed nothing. {@code required} names CTEs of {@code alongside} that
     * must each yield one row whenever the answer was stored; when one yields none this throws (a bug: the caller's
     * transaction rolls back).
     */
    public boolean completeWith(
            ClientKey ck,
            int attempt,
            int responseCode,
            String responseBody,
            SqlPart alongside,
            List<String> required) {
        Map<String, Object> params = new HashMap<>(completeParams(ck, attempt, responseCode, responseBody));
        params.putAll(alongside.params());
        String check = required.isEmpty()
                ? "TRUE"
                : String.join(
                        " AND ",
                        required.stream()
                                .map(cte -> "(SELECT count(*) FROM " + cte + ") = 1")
                                .toList());
        return jdbc.sql("WITH " + COMPLETED + " AS (" + COMPLETE + " RETURNING 1), " + alongside.sql()
                        + "\nSELECT (SELECT count(*) FROM " + COMPLETED + ") AS stored, " + check + " AS required")
                .params(params)
                .query((rs, row) -> {
                    boolean stored = rs.getLong("stored") == 1;
                    if (stored && !rs.getBoolean("required")) {
                        throw new IllegalStateException(
                                "stored the answer of " + ck + " but one of " + required + " wrote nothing");
                    }
                    return stored;
                })
                .single();
    }

    private static final String COMPLETE = """
            UPDATE idempotency_keys
               SET status = 'COMPLETED', response_code = :done_code, response_body = :done_body,
                   expires_at = CAST(:done_expires AS timestamptz), updated_at = CAST(:done_now AS timestamptz)
            """ + " WHERE " + OWNED;

    private Map<String, Object> completeParams(ClientKey ck, int attempt, int responseCode, String responseBody) {
        Instant now = clock.instant();
        Map<String, Object> params = new HashMap<>(ownedRowParams(ck, attempt));
        params.put("done_code", responseCode);
        params.put("done_body", responseBody);
        params.put("done_expires", Db.at(now.plus(properties.retention())));
        params.put("done_now", Db.at(now));
        return params;
    }

    /** An unknown outcome: reconciliation may take the key after the grace period, longer after each try. */
    public boolean awaitResult(ClientKey ck, int attempt) {
        return markAwaiting(ck, attempt, clock.instant().plus(properties.graceFor(attempt)));
    }

    /** An unknown outcome nobody may retry: parked until a person resolves it. */
    public boolean park(ClientKey ck, int attempt) {
        return markAwaiting(ck, attempt, PARKED);
    }

    private boolean markAwaiting(ClientKey ck, int attempt, Instant leaseUntil) {
        return jdbc.sql("""
                UPDATE idempotency_keys
                   SET status = 'AWAITING_RESULT', lease_until = :leaseUntil, updated_at = :now
                """ + " WHERE " + OWNED)
                        .params(ownedRowParams(ck, attempt))
                        .param("leaseUntil", Db.at(leaseUntil))
                        .param("now", Db.at(clock.instant()))
                        .update()
                == 1;
    }

    public Optional<KeyRecord> find(ClientKey ck) {
        return jdbc.sql("SELECT * FROM idempotency_keys WHERE merchant_id = :merchant AND operation = :operation"
                        + " AND idempotency_key = :key")
                .param("merchant", ck.merchant().value())
                .param("operation", ck.operation())
                .param("key", ck.key())
                .query(IdempotencyKeys::map)
                .optional();
    }

    /**
     * The unfinished key of one operation on {@code resourceId} (a payment, capture, void or refund): the one a PSP
     * notification, a person's decision or recovery may take over. Empty once the key is completed (nothing is left
     * to take over) or when there is none. Served by ix_idempotency_keys_unfinished_resource (V170), which holds only
     * unfinished keys; its predicate is repeated here so the planner can use it.
     */
    public Optional<KeyRecord> findUnfinishedByResource(String operation, UUID resourceId) {
        return jdbc.sql(UNFINISHED_BY_RESOURCE)
                .param("operation", operation)
                .param("resource", resourceId)
                .query(IdempotencyKeys::map)
                .optional();
    }

    /**
     * {@link #findUnfinishedByResource}, and the key row locked for the rest of the caller's transaction. A person's
     * decision takes this lock before anything else it locks, as every other writer of an outcome takes the key first
     * (phase 3's fence): one lock order everywhere, so a decision and a notification on one payment never deadlock.
     */
    public Optional<KeyRecord> lockUnfinishedByResource(String operation, UUID resourceId) {
        return jdbc.sql(UNFINISHED_BY_RESOURCE + " FOR UPDATE")
                .param("operation", operation)
                .param("resource", resourceId)
                .query(IdempotencyKeys::map)
                .optional();
    }

    static final String UNFINISHED_BY_RESOURCE = """
            SELECT * FROM idempotency_keys
             WHERE resource_id = :resource AND operation = :operation AND status IN ('IN_PROGRESS', 'AWAITING_RESULT')
            """;

    /** Unfinished keys of one operation whose lease or grace has run out, oldest first. */
    public List<KeyRecord> findRecoverable(String operation, int limit) {
        return jdbc.sql("""
                SELECT * FROM idempotency_keys
                 WHERE status IN ('IN_PROGRESS', 'AWAITING_RESULT') AND lease_until < :now AND operation = :operation
                 ORDER BY lease_until
                 LIMIT :limit
                """)
                .param("now", Db.at(clock.instant()))
                .param("operation", operation)
                .param("limit", limit)
                .query(IdempotencyKeys::map)
                .list();
    }

    /** Deletes one batch of completed keys past retention. Unfinished keys are never deleted. */
    public int deleteExpired(int batchSize) {
        return jdbc.sql("""
                DELETE FROM idempotency_keys
                 WHERE (merchant_id, operation, idempotency_key) IN (
                       SELECT merchant_id, operation, idempotency_key FROM idempotency_keys
                        WHERE status = 'COMPLETED' AND expires_at < :now
                        LIMIT :batch)
                   AND status = 'COMPLETED'
                """)
                .param("now", Db.at(clock.instant()))
                .param("batch", batchSize)
                .update();
    }

    private static KeyRecord map(ResultSet rs, int row) throws SQLException {
        ClientKey ck = new ClientKey(
                new MerchantId(rs.getObject("merchant_id", UUID.class)),
                rs.getString("operation"),
                rs.getString("idempotency_key"));
        int code = rs.getInt("response_code");
        Integer responseCode = rs.wasNull() ? null : code;
        return new KeyRecord(
                ck,
                rs.getString("request_hash"),
                KeyStatus.valueOf(rs.getString("status")),
                rs.getInt("attempt"),
                Db.instant(rs, "lease_until"),
                rs.getObject("resource_id", UUID.class),
                responseCode,
                rs.getString("response_body"),
                Db.instant(rs, "created_at"));
    }
}
