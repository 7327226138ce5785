package dev.kopek.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.events.MoneyMovement.Kind;
import dev.kopek.ledger.domain.AccountType;
import dev.kopek.money.MerchantId;
import dev.kopek.support.Race;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Balances are projected after commit (V162): a read is exact whether the projector has reached a posting or not, and
 * passes that race each other, and race new postings, add every posting exactly once.
 */
class LedgerProjectionTest extends LedgerTestSupport {

    @Test
    void aBalanceReadCountsPostingsTheProjectorHasNotReachedYet() throws Exception {
        MerchantId merchant = newMerchantId();
        UUID first = newId();
        publish(movement(Kind.CAPTURED, merchant, first, first, 3_000, "EUR"));
        projectAll();
        assertThat(projectedBalance(merchant, AccountType.MERCHANT_PAYABLE, "EUR"))
                .isEqualTo(3_000);

        // Holding the mark's row stops every pass (they skip it), as a projector that fell behind would.
        try (Connection held = dataSource.getConnection();
                Statement s = held.createStatement()) {
            held.setAutoCommit(false);
            s.execute("SELECT 1 FROM ledger_projection FOR UPDATE");
            UUID second = newId();
            publish(movement(Kind.CAPTURED, merchant, second, second, 2_500, "EUR"));

            assertThat(projector.project())
                    .as("a pass while another holds the mark")
                    .isEqualTo(-1);
            assertThat(projectedBalance(merchant, AccountType.MERCHANT_PAYABLE, "EUR"))
                    .isEqualTo(3_000);
            assertThat(balance(merchant, AccountType.MERCHANT_PAYABLE, "EUR")).isEqualTo(5_500);
            assertThat(queries.balances(merchant))
                    .singleElement()
                    .satisfies(b -> assertThat(b.availableMinor()).isEqualTo(5_500));
            assertThat(driftChecker.check().drifts())
                    .as("the projection holds what it claims to")
                    .noneMatch(d -> merchant.value().equals(d.merchant()));
            held.rollback();
        }

        projectAll();
        assertThat(projectedBalance(merchant, AccountType.MERCHANT_PAYABLE, "EUR"))
                .isEqualTo(5_500);
        assertThat(balance(merchant, AccountType.MERCHANT_PAYABLE, "EUR")).isEqualTo(5_500);
    }

    @Test
    void passesRacingEachOtherAndNewPostingsAddEveryPostingOnce() throws Exception {
        MerchantId merchant = newMerchantId();
        int postings = 24;

        List<Integer> results = Race.of(postings + 8, i -> {
            if (i < postings) {
                UUID payment = newId();
                publish(movement(Kind.CAPTURED, merchant, payment, payment, 100 + i, "EUR"));
                return 0;
            }
            return projector.project();
        });

        assertThat(results).hasSize(postings + 8);
        projectAll();
        long expected = 0;
        for (int i = 0; i < postings; i++) {
            expected += 100 + i;
        }
        assertThat(entryBalance(merchant, AccountType.MERCHANT_PAYABLE, "EUR")).isEqualTo(expected);
        assertThat(projectedBalance(merchant, AccountType.MERCHANT_PAYABLE, "EUR"))
                .isEqualTo(expected);
        assertThat(balance(merchant, AccountType.MERCHANT_PAYABLE, "EUR")).isEqualTo(expected);
        assertThat(driftChecker.check().drifts())
                .noneMatch(d -> merchant.value().equals(d.merchant()));
    }
}
