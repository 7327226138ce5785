package dev.kopek.psp;

import dev.kopek.merchants.Merchants;
import dev.kopek.money.MerchantId;
import dev.kopek.platform.Db;
import dev.kopek.platform.SealedRows;
import dev.kopek.platform.SecretBox;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code merchant_psp}: credentials sealed with the {@link SecretBox}, bound to the merchant's id (V120), and sealed
 * again under the current key after a rotation ({@link dev.kopek.platform.SecretResealing}).
 */
@Component
public class MerchantPspStore implements SealedRows {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcClient jdbc;
    private final SecretBox box;
    private final Merchants merchants;

    MerchantPspStore(JdbcClient jdbc, SecretBox box, Merchants merchants) {
        this.jdbc = jdbc;
        this.box = box;
        this.merchants = merchants;
    }

    /** The merchant's setting, its credentials opened; empty when it uses Kopek's configured PSP. */
    public Optional<MerchantPsp> find(MerchantId merchant) {
        return jdbc.sql("""
                SELECT provider, credentials_key_id, credentials_sealed, version, updated_at
                  FROM merchant_psp WHERE merchant_id = :merchant
                """)
                .param("merchant", merchant.value())
                .query((rs, n) -> read(merchant, rs))
                .optional();
    }

    /**
     * Merchants that have sent payments through their own account at their PSP (a payment's psp_account is that
     * account's provider), at most {@code limit}, in id order: the accounts whose settlement Kopek reconciles besides
     * its configured PSP's. Payments are read through the view their module publishes.
     */
    public List<MerchantId> withOwnAccountPayments(int limit) {
        return jdbc.sql("""
                SELECT m.merchant_id FROM merchant_psp m
                 WHERE EXISTS (SELECT 1 FROM published_payments p
                                WHERE p.merchant_id = m.merchant_id AND p.psp_account = m.provider)
                 ORDER BY m.merchant_id
                 LIMIT :limit
                """)
                .param("limit", limit)
                .query((rs, n) -> new MerchantId(rs.getObject("merchant_id", UUID.class)))
                .list();
    }

    /** Only the version: cheap enough to ask on every payment, so a rotation reaches every instance at once. */
    public Optional<Integer> version(MerchantId merchant) {
        return jdbc.sql("SELECT version FROM merchant_psp WHERE merchant_id = :merchant")
                .param("merchant", merchant.value())
                .query(Integer.class)
                .optional();
    }

    /** Inserts or replaces the merchant's setting in the caller's transaction; the version goes up by one. */
    public MerchantPsp save(MerchantId merchant, String provider, MerchantPsp.Credentials credentials, Instant now) {
        SecretBox.Sealed sealed = credentials.secretKey().isEmpty()
                ? null
                : box.seal(JSON.writeValueAsString(json(credentials)), boundTo(merchant));
        int version = jdbc.sql("""
                INSERT INTO merchant_psp (merchant_id, provider, credentials_key_id, credentials_sealed, version,
                                          updated_at)
                VALUES (:merchant, :provider, :keyId, :sealed, 1, :now)
                ON CONFLICT (merchant_id) DO UPDATE
                   SET provider = EXCLUDED.provider, credentials_key_id = EXCLUDED.credentials_key_id,
                       credentials_sealed = EXCLUDED.credentials_sealed, version = merchant_psp.version + 1,
                       updated_at = EXCLUDED.updated_at
                RETURNING version
                """)
                .param("merchant", merchant.value())
                .param("provider", provider)
                .param("keyId", sealed == null ? null : sealed.keyId())
                .param("sealed", sealed == null ? null : sealed.bytes())
                .param("now", Db.at(now))
                .query(Integer.class)
                .single();
        // Where new payments go, on the row a payment's phase 1 locks: this provider once it has credentials.
        merchants.recordPaymentsAccount(merchant, sealed == null ? null : provider);
        return new MerchantPsp(merchant, provider, credentials, version, now);
    }

    /**
     * Locks the merchant's row (FOR UPDATE) in the caller's transaction. A payment's first transaction holds the same
     * row FOR KEY SHARE from its key claim to its commit (the key's foreign key), so the two serialize: a change of
     * the merchant's PSP is either wholly before a payment's insert (which then records the new account) or sees the
     * payment.
     */
    public void lockMerchant(MerchantId merchant) {
        merchants.lockForUpdate(merchant);
    }

    /** Whether any payment of the merchant exists: its PSP holds them, so the PSP may no longer change. */
    public boolean hasPayments(MerchantId merchant) {
        // Through the view the payments module publishes: that module depends on this one, not the other way round.
        return jdbc.sql("SELECT EXISTS (SELECT 1 FROM published_payments WHERE merchant_id = :merchant)")
                .param("merchant", merchant.value())
                .query(Boolean.class)
                .single();
    }

    @Override
    public String what() {
        return "merchants' PSP credentials";
    }

    /** The credentials and their version do not change: the adapters built from them stay valid. */
    @Override
    public int resealBatch(int limit) {
        List<UUID> ids = jdbc.sql("""
                SELECT merchant_id FROM merchant_psp
                 WHERE credentials_key_id IS NOT NULL AND credentials_key_id <> :current
                   AND credentials_key_id IN (:openable)
                 LIMIT :limit
                   FOR UPDATE SKIP LOCKED
                """)
                .param("current", box.currentKeyId())
                .param("openable", List.copyOf(box.keyIds()))
                .param("limit", limit)
                .query(UUID.class)
                .list();
        for (UUID id : ids) {
            MerchantId merchant = new MerchantId(id);
            MerchantPsp psp = find(merchant).orElseThrow();
            SecretBox.Sealed sealed = box.seal(JSON.writeValueAsString(json(psp.credentials())), boundTo(merchant));
            jdbc.sql("""
                    UPDATE merchant_psp SET credentials_key_id = :keyId, credentials_sealed = :sealed
                     WHERE merchant_id = :merchant
                    """)
                    .param("keyId", sealed.keyId())
                    .param("sealed", sealed.bytes())
                    .param("merchant", id)
                    .update();
        }
        return ids.size();
    }

    @Override
    public long countUnopenable() {
        return jdbc.sql("SELECT count(*) FROM merchant_psp WHERE credentials_key_id NOT IN (:openable)")
                .param("openable", List.copyOf(box.keyIds()))
                .query(Long.class)
                .single();
    }

    private MerchantPsp read(MerchantId merchant, ResultSet rs) throws SQLException {
        byte[] sealed = rs.getBytes("credentials_sealed");
        MerchantPsp.Credentials credentials = sealed == null
                ? MerchantPsp.Credentials.NONE
                : credentials(
                        box.open(new SecretBox.Sealed(rs.getString("credentials_key_id"), sealed), boundTo(merchant)));
        return new MerchantPsp(
                merchant,
                rs.getString("provider"),
                credentials,
                rs.getInt("version"),
                rs.getTimestamp("updated_at").toInstant());
    }

    private static String boundTo(MerchantId merchant) {
        return "merchant_psp:" + merchant.value();
    }

    private static ObjectNode json(MerchantPsp.Credentials credentials) {
        ObjectNode node = JSON.createObjectNode();
        node.put("secret_key", credentials.secretKey());
        credentials.webhookSecrets().forEach(node.putArray("webhook_secrets")::add);
        return node;
    }

    private static MerchantPsp.Credentials credentials(String json) {
        JsonNode node = JSON.readTree(json);
        List<String> secrets = new ArrayList<>();
        node.path("webhook_secrets").forEach(s -> secrets.add(s.stringValue()));
        return new MerchantPsp.Credentials(node.path("secret_key").stringValue(), secrets);
    }
}
