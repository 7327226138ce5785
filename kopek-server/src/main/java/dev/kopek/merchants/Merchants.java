package dev.kopek.merchants;

import dev.kopek.money.MerchantId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.platform.Db;
import dev.kopek.platform.SqlPart;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Merchants and API keys. Keys are stored as SHA-256 digests; the secret is shown once, when issued. */
@Service
public class Merchants {

    public static final String KEY_PREFIX = "sk_test_";
    private static final int CACHE_LIMIT = 10_000;

    private final JdbcClient jdbc;
    private final Clock clock;
    private final long cacheTtlMillis;
    private final ConcurrentHashMap<String, CachedKey> verified = new ConcurrentHashMap<>();

    Merchants(JdbcClient jdbc, Clock clock, MerchantsProperties properties) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.cacheTtlMillis = properties.keyCacheTtl().toMillis();
    }

    public record Merchant(MerchantId id, String name, Instant createdAt) {}

    public record KeyInfo(UUID id, String prefix, Instant createdAt, Instant revokedAt) {}

    private record CachedKey(MerchantId merchant, long untilMillis) {}

    @Transactional
    public Merchant create(String name) {
        Instant now = clock.instant();
        UUID id = TimeOrderedIds.next(clock);
        jdbc.sql("INSERT INTO merchants (id, name, created_at) VALUES (:id, :name, :now)")
                .param("id", id)
                .param("name", name)
                .param("now", Db.at(now))
                .update();
        return new Merchant(new MerchantId(id), name, now);
    }

    /**
     * A CTE named {@code account} (column {@code psp_account}) for the caller's statement: the PSP account the
     * merchant's new payments go to, read from its row locked FOR KEY SHARE. A payment's phase 1 joins it; a change
     * of the merchant's PSP locks the row FOR UPDATE ({@link #lockForUpdate}) and writes the account to it
     * ({@link #recordPaymentsAccount}), so in READ COMMITTED the statement reads the row as that change left it.
     */
    public static SqlPart paymentsAccountPart(MerchantId merchant) {
        return new SqlPart(
                "account AS MATERIALIZED (SELECT psp_account FROM merchants WHERE id = :account_merchant"
                        + " FOR KEY SHARE)",
                Map.of("account_merchant", merchant.value()));
    }

    /**
     * {@link #paymentsAccountPart} for the merchants of a batch of new payments: a CTE named {@code account} with
     * each merchant's {@code id} and {@code psp_account}, their rows locked {@code FOR KEY SHARE} in the order of
     * their ids.
     */
    public static SqlPart paymentsAccountsPart(Collection<MerchantId> merchants) {
        return new SqlPart(
                "account AS MATERIALIZED (SELECT id, psp_account FROM merchants"
                        + " WHERE id = ANY (CAST(:accounts_merchants AS uuid[])) ORDER BY id FOR KEY SHARE)",
                Map.of(
                        "accounts_merchants",
                        merchants.stream().map(MerchantId::value).distinct().toArray(UUID[]::new)));
    }

    /** Locks the merchant's row FOR UPDATE in the caller's transaction, against payments' phase 1 (see above). */
    public void lockForUpdate(MerchantId merchant) {
        jdbc.sql("SELECT 1 FROM merchants WHERE id = :merchant FOR UPDATE")
                .param("merchant", merchant.value())
                .query(Integer.class)
                .optional();
    }

    /**
     * Where the merchant's new payments go, on the row a payment's phase 1 locks (V166): a provider that holds the
     * merchant's own credentials, or null for Kopek's configured PSP. In the caller's transaction.
     */
    public void recordPaymentsAccount(MerchantId merchant, String account) {
        jdbc.sql("UPDATE merchants SET psp_account = :account WHERE id = :merchant")
                .param("account", account)
                .param("merchant", merchant.value())
                .update();
    }

    public Optional<Merchant> find(MerchantId id) {
        return jdbc.sql("SELECT id, name, created_at FROM merchants WHERE id = :id")
                .param("id", id.value())
                .query((rs, n) -> new Merchant(
                        new MerchantId(rs.getObject("id", UUID.class)),
                        rs.getString("name"),
                        Db.instant(rs, "created_at")))
                .optional();
    }

    public IssuedKey issueKey(MerchantId merchant) {
        return register(merchant, Secrets.newSecret(KEY_PREFIX));
    }

    /** Registers a secret chosen by the operator (the demo key); the digest is unique across merchants. */
    @Transactional
    public IssuedKey register(MerchantId merchant, String secret) {
        Instant now = clock.instant();
        UUID id = TimeOrderedIds.next(clock);
        String prefix = secret.substring(0, Math.min(12, secret.length()));
        jdbc.sql("""
                INSERT INTO api_keys (id, merchant_id, key_hash, key_prefix, created_at)
                VALUES (:id, :merchant, :hash, :prefix, :now)
                """)
                .param("id", id)
                .param("merchant", merchant.value())
                .param("hash", Secrets.sha256Hex(secret))
                .param("prefix", prefix)
                .param("now", Db.at(now))
                .update();
        return new IssuedKey(id, secret, prefix, now);
    }

    public List<KeyInfo> keys(MerchantId merchant) {
        return jdbc.sql("""
                SELECT id, key_prefix, created_at, revoked_at FROM api_keys
                 WHERE merchant_id = :merchant ORDER BY created_at, id
                """)
                .param("merchant", merchant.value())
                .query((rs, n) -> new KeyInfo(
                        rs.getObject("id", UUID.class),
                        rs.getString("key_prefix"),
                        Db.instant(rs, "created_at"),
                        Db.instant(rs, "revoked_at")))
                .list();
    }

    /** Revokes a key of this merchant; another merchant's key id is simply not found. */
    @Transactional
    public Optional<KeyInfo> revoke(MerchantId merchant, UUID keyId) {
        Optional<String> hash = jdbc.sql("""
                UPDATE api_keys SET revoked_at = COALESCE(revoked_at, :now)
                 WHERE id = :id AND merchant_id = :merchant
                RETURNING key_hash
                """)
                .param("now", Db.at(clock.instant()))
                .param("id", keyId)
                .param("merchant", merchant.value())
                .query(String.class)
                .optional();
        hash.ifPresent(verified::remove);
        return hash.flatMap(
                h -> keys(merchant).stream().filter(k -> k.id().equals(keyId)).findFirst());
    }

    public boolean isRegistered(String secret) {
        return jdbc.sql("SELECT count(*) FROM api_keys WHERE key_hash = :hash")
                        .param("hash", Secrets.sha256Hex(secret))
                        .query(Long.class)
                        .single()
                > 0;
    }

    /** The merchant a live secret belongs to. Verified keys are cached briefly so each request is one lookup less. */
    public Optional<MerchantId> authenticate(String secret) {
        String hash = Secrets.sha256Hex(secret);
        long nowMillis = clock.millis();
        CachedKey cached = verified.get(hash);
        if (cached != null && cached.untilMillis() > nowMillis) {
            return Optional.of(cached.merchant());
        }
        Optional<MerchantId> merchant =
                jdbc.sql("""
                SELECT merchant_id FROM api_keys WHERE key_hash = :hash AND revoked_at IS NULL
                """).param("hash", hash).query(UUID.class).optional().map(MerchantId::new);
        if (merchant.isPresent()) {
            if (verified.size() >= CACHE_LIMIT) {
                verified.clear();
            }
            verified.put(hash, new CachedKey(merchant.get(), nowMillis + cacheTtlMillis));
        } else {
            verified.remove(hash);
        }
        return merchant;
    }

    long count() {
        return jdbc.sql("SELECT count(*) FROM merchants").query(Long.class).single();
    }

    JdbcClient jdbc() {
        return jdbc;
    }
}
