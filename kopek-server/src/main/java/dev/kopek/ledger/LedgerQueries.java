package dev.kopek.ledger;

import dev.kopek.ledger.domain.AccountType;
import dev.kopek.ledger.domain.FeeRule;
import dev.kopek.ledger.jdbc.BalanceStore;
import dev.kopek.ledger.jdbc.FeeStore;
import dev.kopek.ledger.jdbc.JournalStore;
import dev.kopek.ledger.jdbc.LedgerHistoryStores;
import dev.kopek.money.MerchantId;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Reads for the API (balances, the journal of a merchant) and the fee schedules. Every read is merchant-scoped.
 * History pages and balances come from the read replica when there is one ({@link LedgerHistoryStores}): seconds
 * of lag are harmless there, and a balance is a projection already. A transaction read by its id comes from the
 * primary, since its caller may just have made it (docs/read-replicas.md).
 */
@Service
public class LedgerQueries {

    public static final int MAX_PAGE = 100;

    private final JournalStore journal;
    private final JournalStore history;
    private final BalanceStore balances;
    private final FeeStore fees;
    private final Clock clock;
    private final LedgerProperties properties;

    LedgerQueries(
            JournalStore journal,
            LedgerHistoryStores replica,
            FeeStore fees,
            Clock clock,
            LedgerProperties properties) {
        this.journal = journal;
        this.history = replica.journal();
        this.balances = replica.balances();
        this.fees = fees;
        this.clock = clock;
        this.properties = properties;
    }

    /** A page of journal transactions and whether more follow. */
    public record Page(List<LedgerTransaction> transactions, boolean hasMore) {}

    /**
     * Per currency in which the merchant has accounts, sorted by currency. Throws {@link BalancesBehind} when the
     * projector is further behind than a read may sum ({@code kopek.ledger.max-unprojected-read}).
     */
    public List<MerchantBalance> balances(MerchantId merchant) {
        Map<String, long[]> byCurrency = new TreeMap<>();
        for (BalanceStore.AccountTotals account : balances.merchantAccounts(merchant, properties.maxUnprojectedRead())
                .orElseThrow(() -> new BalancesBehind(properties.maxUnprojectedRead()))) {
            long[] amounts = byCurrency.computeIfAbsent(account.currency(), c -> new long[3]);
            int slot = switch (account.type()) {
                case MERCHANT_PAYABLE -> 0;
                case HOLDS_PAYABLE -> 1;
                case REFUNDS_PENDING -> 2;
                case HOLDS_RECEIVABLE, CHARGEBACKS, PSP_RECEIVABLE, PLATFORM_REVENUE, PSP_FEES -> -1;
            };
            if (slot >= 0) {
                amounts[slot] = Math.addExact(amounts[slot], account.balanceMinor());
            }
        }
        List<MerchantBalance> result = new ArrayList<>();
        byCurrency.forEach((currency, a) -> result.add(new MerchantBalance(currency, a[0], a[1], a[2])));
        return result;
    }

    public Page transactions(MerchantId merchant, UUID paymentId, UUID after, int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be 1–" + MAX_PAGE);
        }
        List<LedgerTransaction> rows = history.page(merchant, paymentId, after, limit + 1);
        return new Page(rows.subList(0, Math.min(limit, rows.size())), rows.size() > limit);
    }

    public Optional<LedgerTransaction> transaction(MerchantId merchant, UUID id) {
        return journal.find(id).filter(tx -> merchant.equals(tx.merchant()));
    }

    /** Any merchant's transaction, for the admin API. */
    public Optional<LedgerTransaction> transaction(UUID id) {
        return journal.find(id);
    }

    @Transactional
    public Fee setFee(MerchantId merchant, String currency, FeeRule rule) {
        return fees.put(merchant, currency, rule, clock.instant());
    }

    public List<Fee> fees(MerchantId merchant) {
        return fees.all(merchant);
    }

    /** The platform's own accounts (PSP receivable, revenue) per currency, shards summed. */
    public Map<String, Map<AccountType, Long>> platformBalances() {
        Map<String, Map<AccountType, Long>> result = new TreeMap<>();
        for (BalanceStore.AccountTotals account : balances.platformAccounts(properties.maxUnprojectedRead())
                .orElseThrow(() -> new BalancesBehind(properties.maxUnprojectedRead()))) {
            result.computeIfAbsent(account.currency(), c -> new TreeMap<>())
                    .put(account.type(), account.balanceMinor());
        }
        return result;
    }
}
