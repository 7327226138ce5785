package dev.kopek.ledger.jdbc;

import dev.kopek.ledger.domain.AccountType;
import dev.kopek.platform.Db;
import java.time.Clock;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Account ids by (owner, type, currency), created on first use. Accounts are never deleted or changed, so an id
 * is cached for good — but only once the transaction that saw it has committed: an account created by a
 * transaction that then rolls back does not exist.
 */
@Repository
public class AccountStore {

    private static final int CACHE_LIMIT = 100_000;

    private final JdbcClient jdbc;
    private final Clock clock;
    private final ConcurrentHashMap<Key, Long> ids = new ConcurrentHashMap<>();

    AccountStore(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** @param merchant the owner; {@code null} for a platform account */
    public record Key(UUID merchant, AccountType type, String currency) {
        public Key {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(currency, "currency");
            if ((merchant == null) != type.isPlatform()) {
                throw new IllegalArgumentException(type + " is " + type.owner() + "-owned; merchant " + merchant);
            }
        }
    }

    public long id(Key key) {
        Long cached = ids.get(key);
        if (cached != null) {
            return cached;
        }
        long id = key.merchant() == null ? platformAccount(key) : merchantAccount(key);
        rememberAfterCommit(key, id);
        return id;
    }

    private long merchantAccount(Key key) {
        return jdbc.sql("""
                INSERT INTO ledger_accounts (merchant_id, type, currency, created_at)
                VALUES (:merchant, :type, :currency, :now)
                ON CONFLICT DO NOTHING
                RETURNING id
                """)
                .param("merchant", key.merchant())
                .param("type", key.type().name())
                .param("currency", key.currency())
                .param("now", Db.at(clock.instant()))
                .query(Long.class)
                .optional()
                .orElseGet(() -> jdbc.sql("""
                        SELECT id FROM ledger_accounts
                         WHERE merchant_id = :merchant AND type = :type AND currency = :currency
                        """)
                        .param("merchant", key.merchant())
                        .param("type", key.type().name())
                        .param("currency", key.currency())
                        .query(Long.class)
                        .single());
    }

    private long platformAccount(Key key) {
        return jdbc.sql("""
                INSERT INTO ledger_accounts (merchant_id, type, currency, created_at)
                VALUES (NULL, :type, :currency, :now)
                ON CONFLICT DO NOTHING
                RETURNING id
                """)
                .param("type", key.type().name())
                .param("currency", key.currency())
                .param("now", Db.at(clock.instant()))
                .query(Long.class)
                .optional()
                .orElseGet(() -> jdbc.sql("""
                        SELECT id FROM ledger_accounts
                         WHERE merchant_id IS NULL AND type = :type AND currency = :currency
                        """)
                        .param("type", key.type().name())
                        .param("currency", key.currency())
                        .query(Long.class)
                        .single());
    }

    private void rememberAfterCommit(Key key, long id) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            // Read or created in autocommit (a posting written as a part of one statement): committed already.
            remember(key, id);
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                remember(key, id);
            }
        });
    }

    private void remember(Key key, long id) {
        if (ids.size() >= CACHE_LIMIT) {
            ids.clear();
        }
        ids.put(key, id);
    }
}
