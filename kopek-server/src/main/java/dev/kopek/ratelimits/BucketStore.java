package dev.kopek.ratelimits;

import dev.kopek.money.MerchantId;
import dev.kopek.platform.Db;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The rate_limit_buckets and merchant_rate_limits tables. A bucket row stores the tokens it held at
 * {@code refilled_at}; what it holds now is computed from the clock in the statement that takes a token, so there
 * is no refill job and instances agree through the row alone.
 */
@Repository
class BucketStore {

    private final JdbcClient jdbc;

    BucketStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * One bucket as the take statement left it: {@code granted} tokens were taken from both buckets (0 when either
     * held less than one); {@code available} is what it held before.
     */
    record Taken(String bucket, int granted, double available, double perSecond) {}

    /**
     * Takes the same number of tokens from both buckets: as many as both hold, up to {@code most} and up to a
     * twentieth of a second of the slower bucket's rate (at least one), or none when either holds less than one.
     * One statement, so in autocommit it is its own short transaction; the two rows are locked in name order, so two
     * requests never wait on each other crosswise. Fewer than two rows back means a bucket row does not exist yet.
     */
    List<Taken> take(
            String merchantBucket,
            MerchantId merchant,
            Kind kind,
            Limit merchantDefault,
            String globalBucket,
            Limit globalShare,
            int most,
            Instant now) {
        return jdbc.sql("""
                WITH shape (bucket, per_second, burst) AS (
                    SELECT CAST(:merchantBucket AS VARCHAR), COALESCE(o.per_second, CAST(:rate AS DOUBLE PRECISION)),
                           COALESCE(o.burst, CAST(:burst AS INT))
                      FROM (SELECT 1) AS one
                      LEFT JOIN merchant_rate_limits o ON o.merchant_id = :merchant AND o.kind = :kind
                    UNION ALL
                    SELECT CAST(:globalBucket AS VARCHAR), CAST(:globalRate AS DOUBLE PRECISION),
                           CAST(:globalBurst AS INT)
                ), current AS (
                    SELECT b.bucket, s.per_second,
                           LEAST(s.burst, b.tokens + s.per_second
                                 * GREATEST(0, EXTRACT(EPOCH FROM (:now - b.refilled_at)))) AS available
                      FROM rate_limit_buckets b JOIN shape s ON s.bucket = b.bucket
                     ORDER BY b.bucket
                       FOR UPDATE OF b
                ), verdict AS (
                    SELECT CASE WHEN count(*) = 2
                                THEN CAST(GREATEST(0, LEAST(floor(min(available)),
                                          GREATEST(1, LEAST(CAST(:most AS INT), floor(min(per_second) / 20)))))
                                          AS INT)
                                ELSE 0 END AS granted
                      FROM current
                )
                UPDATE rate_limit_buckets b
                   SET tokens = c.available - v.granted,
                       refilled_at = GREATEST(b.refilled_at, :now)
                  FROM current c, verdict v
                 WHERE b.bucket = c.bucket
                RETURNING b.bucket, v.granted, c.available, c.per_second
                """)
                .param("merchantBucket", merchantBucket)
                .param("rate", merchantDefault.perSecond())
                .param("burst", merchantDefault.burst())
                .param("merchant", merchant.value())
                .param("kind", kind.label())
                .param("globalBucket", globalBucket)
                .param("globalRate", globalShare.perSecond())
                .param("globalBurst", globalShare.burst())
                .param("most", most)
                .param("now", Db.at(now))
                .query((rs, n) -> new Taken(
                        rs.getString("bucket"),
                        rs.getInt("granted"),
                        rs.getDouble("available"),
                        rs.getDouble("per_second")))
                .list();
    }

    /** Creates missing bucket rows full; a row another instance created first is kept as it is. */
    void createFull(List<String> buckets, List<Integer> bursts, Instant now) {
        for (int i = 0; i < buckets.size(); i++) {
            jdbc.sql("""
                    INSERT INTO rate_limit_buckets (bucket, tokens, refilled_at) VALUES (:bucket, :tokens, :now)
                    ON CONFLICT (bucket) DO NOTHING
                    """)
                    .param("bucket", buckets.get(i))
                    .param("tokens", (double) bursts.get(i))
                    .param("now", Db.at(now))
                    .update();
        }
    }

    Optional<Limit> override(MerchantId merchant, Kind kind) {
        return jdbc.sql(
                        "SELECT per_second, burst FROM merchant_rate_limits WHERE merchant_id = :merchant AND kind = :kind")
                .param("merchant", merchant.value())
                .param("kind", kind.label())
                .query((rs, n) -> new Limit(rs.getDouble("per_second"), rs.getInt("burst")))
                .optional();
    }

    void setOverride(MerchantId merchant, Kind kind, Limit limit, String by, Instant now) {
        jdbc.sql("""
                INSERT INTO merchant_rate_limits (merchant_id, kind, per_second, burst, updated_at, updated_by)
                VALUES (:merchant, :kind, :rate, :burst, :now, :by)
                ON CONFLICT (merchant_id, kind)
                DO UPDATE SET per_second = EXCLUDED.per_second, burst = EXCLUDED.burst,
                              updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by
                """)
                .param("merchant", merchant.value())
                .param("kind", kind.label())
                .param("rate", limit.perSecond())
                .param("burst", limit.burst())
                .param("now", Db.at(now))
                .param("by", by)
                .update();
    }

    void clearOverride(MerchantId merchant, Kind kind) {
        jdbc.sql("DELETE FROM merchant_rate_limits WHERE merchant_id = :merchant AND kind = :kind")
                .param("merchant", merchant.value())
                .param("kind", kind.label())
                .update();
    }
}
