package dev.kopek.ledger;

import static dev.kopek.ledger.domain.AccountType.CHARGEBACKS;
import static dev.kopek.ledger.domain.AccountType.HOLDS_PAYABLE;
import static dev.kopek.ledger.domain.AccountType.HOLDS_RECEIVABLE;
import static dev.kopek.ledger.domain.AccountType.MERCHANT_PAYABLE;
import static dev.kopek.ledger.domain.AccountType.PLATFORM_REVENUE;
import static dev.kopek.ledger.domain.AccountType.PSP_RECEIVABLE;
import static dev.kopek.ledger.domain.AccountType.REFUNDS_PENDING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.events.MoneyMovement;
import dev.kopek.events.MoneyMovement.Kind;
import dev.kopek.ledger.domain.AccountType;
import dev.kopek.ledger.domain.FeeRule;
import dev.kopek.ledger.domain.Side;
import dev.kopek.money.MerchantId;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The posting table, idempotency and reversals, posted as Kopek posts them (statement parts, or the real listener)
 * inside real transactions.
 */
class LedgerPostingTest extends LedgerTestSupport {

    record Expected(AccountType account, Side side, long amount) {}

    @Test
    void movementOutsideATransactionIsRefusedAndPostsNothing() {
        MerchantId merchant = newMerchantId();
        UUID payment = newId();
        MoneyMovement withdrawn = movement(Kind.CHARGEBACK_WITHDRAWN, merchant, payment, payment, 1_000, "EUR");

        assertThatThrownBy(() -> publisher.publishEvent(withdrawn))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("inside the transaction");
        assertThat(journalOf(merchant, payment)).isEmpty();
    }

    @Test
    void aMovementPostedAsAStatementPartIsRefusedByTheListener() {
        MerchantId merchant = newMerchantId();
        UUID payment = newId();
        for (Kind kind : List.of(
                Kind.AUTHORIZATION_HELD,
                Kind.CAPTURED,
                Kind.AUTHORIZATION_RELEASED,
                Kind.REFUND_SUCCEEDED,
                Kind.REFUND_RELEASED)) {
            assertThatThrownBy(() -> tx.executeWithoutResult(
                            s -> publisher.publishEvent(movement(kind, merchant, payment, payment, 1_000, "EUR"))))
                    .as("%s", kind)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("posted as a part of the statement");
        }
        assertThat(journalOf(merchant, payment)).isEmpty();
    }

    @Test
    void manualCaptureWithFeeFollowsThePostingTable() {
        MerchantId merchant = newMerchantId();
        queries.setFee(merchant, "EUR", new FeeRule(290, 30));
        UUID payment = newId();
        UUID capture = newId();
        publish(movement(Kind.AUTHORIZATION_HELD, merchant, payment, payment, 10_000, "EUR"));
        // A final partial capture: the business transaction posts the capture and releases the rest.
        publish(
                movement(Kind.CAPTURED, merchant, payment, capture, 6_001, "EUR"),
                movement(Kind.AUTHORIZATION_RELEASED, merchant, payment, capture, 3_999, "EUR"));

        // One statement posts the capture and the release: their ids fall in the same millisecond, in either order.
        Map<String, LedgerTransaction> journal =
                journalOf(merchant, payment).stream().collect(Collectors.toMap(LedgerTransaction::kind, t -> t));
        assertThat(journal).containsOnlyKeys("AUTHORIZATION_HELD", "CAPTURED", "AUTHORIZATION_RELEASED");
        assertLines(
                journal.get("AUTHORIZATION_HELD"),
                new Expected(HOLDS_RECEIVABLE, Side.DEBIT, 10_000),
                new Expected(HOLDS_PAYABLE, Side.CREDIT, 10_000));
        // fee = half-up(6001 × 2.90 %) + 30 = 174 + 30 (174.029 rounds down)
        assertLines(
                journal.get("CAPTURED"),
                new Expected(PSP_RECEIVABLE, Side.DEBIT, 6_001),
                new Expected(MERCHANT_PAYABLE, Side.CREDIT, 5_797),
                new Expected(PLATFORM_REVENUE, Side.CREDIT, 204),
                new Expected(HOLDS_PAYABLE, Side.DEBIT, 6_001),
                new Expected(HOLDS_RECEIVABLE, Side.CREDIT, 6_001));
        assertLines(
                journal.get("AUTHORIZATION_RELEASED"),
                new Expected(HOLDS_PAYABLE, Side.DEBIT, 3_999),
                new Expected(HOLDS_RECEIVABLE, Side.CREDIT, 3_999));
        assertThat(balance(merchant, MERCHANT_PAYABLE, "EUR")).isEqualTo(5_797);
        assertThat(balance(merchant, HOLDS_PAYABLE, "EUR")).isZero();
        assertThat(balance(merchant, HOLDS_RECEIVABLE, "EUR")).isZero();
        assertThat(queries.balances(merchant)).containsExactly(new MerchantBalance("EUR", 5_797, 0, 0));
    }

    @Test
    void automaticCaptureWithoutAHoldPostsReceivableAgainstPayable() {
        MerchantId merchant = newMerchantId();
        UUID payment = newId();
        long receivableBefore = balance(null, PSP_RECEIVABLE, "RUB");
        publish(movement(Kind.CAPTURED, merchant, payment, payment, 499_000, "RUB"));

        assertLines(
                journalOf(merchant, payment).getFirst(),
                new Expected(PSP_RECEIVABLE, Side.DEBIT, 499_000),
                new Expected(MERCHANT_PAYABLE, Side.CREDIT, 499_000));
        assertThat(balance(null, PSP_RECEIVABLE, "RUB") - receivableBefore).isEqualTo(499_000);
        assertThat(queries.balances(merchant)).containsExactly(new MerchantBalance("RUB", 499_000, 0, 0));
    }

    @Test
    void replayedMovementPostsNothingTwice() {
        MerchantId merchant = newMerchantId();
        UUID payment = newId();
        MoneyMovement captured = movement(Kind.CAPTURED, merchant, payment, payment, 2_500, "EUR");
        publish(captured);
        publish(captured);
        publish(captured, captured);

        assertThat(journalOf(merchant, payment)).hasSize(1);
        assertThat(balance(merchant, MERCHANT_PAYABLE, "EUR")).isEqualTo(2_500);
    }

    @Test
    void replayWithOtherFactsIsABugAndRollsTheBusinessTransactionBack() {
        MerchantId merchant = newMerchantId();
        UUID payment = newId();
        UUID dispute = newId();
        publish(movement(Kind.CAPTURED, merchant, payment, payment, 2_500, "EUR"));
        publish(movement(Kind.CHARGEBACK_WITHDRAWN, merchant, payment, dispute, 1_000, "EUR"));

        assertThatThrownBy(() -> publish(movement(Kind.CHARGEBACK_WITHDRAWN, merchant, payment, dispute, 900, "EUR")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("other facts");
        assertThat(balance(merchant, MERCHANT_PAYABLE, "EUR")).isEqualTo(1_500);
    }

    @Test
    void rolledBackBusinessTransactionLeavesNoPosting() {
        MerchantId merchant = newMerchantId();
        UUID payment = newId();
        tx.executeWithoutResult(status -> {
            postIn(movement(Kind.CAPTURED, merchant, payment, payment, 700, "EUR"));
            status.setRollbackOnly();
        });
        assertThat(journalOf(merchant, payment)).isEmpty();
        // The account created by the rolled-back posting is gone too; a later posting creates it again.
        publish(movement(Kind.CAPTURED, merchant, payment, payment, 700, "EUR"));
        assertThat(balance(merchant, MERCHANT_PAYABLE, "EUR")).isEqualTo(700);
    }

    @Test
    void refundIsReservedThenSettledOnceEitherWay() {
        MerchantId merchant = newMerchantId();
        UUID payment = newId();
        UUID refundOk = newId();
        UUID refundRefused = newId();
        publish(movement(Kind.CAPTURED, merchant, payment, payment, 10_000, "EUR"));
        publish(
                movement(Kind.REFUND_RESERVED, merchant, payment, refundOk, 3_000, "EUR"),
                movement(Kind.REFUND_RESERVED, merchant, payment, refundRefused, 2_000, "EUR"));
        assertThat(queries.balances(merchant)).containsExactly(new MerchantBalance("EUR", 5_000, 0, 5_000));

        publish(movement(Kind.REFUND_SUCCEEDED, merchant, payment, refundOk, 3_000, "EUR"));
        publish(movement(Kind.REFUND_RELEASED, merchant, payment, refundRefused, 2_000, "EUR"));
        assertThat(queries.balances(merchant)).containsExactly(new MerchantBalance("EUR", 7_000, 0, 0));

        // The other outcome for a refund already settled is refused by the database (one settlement per refund).
        assertThatThrownBy(() -> publish(movement(Kind.REFUND_RELEASED, merchant, payment, refundOk, 3_000, "EUR")))
                .hasMessageContaining("ux_ledger_transactions_refund_settled_once");
        // Settling a refund that was never reserved, or for another amount, is a bug upstream.
        assertThatThrownBy(() -> publish(movement(Kind.REFUND_SUCCEEDED, merchant, payment, newId(), 1_000, "EUR")))
                .hasMessageContaining("does not match");
        UUID refund = newId();
        publish(movement(Kind.REFUND_RESERVED, merchant, payment, refund, 1_000, "EUR"));
        assertThatThrownBy(() -> publish(movement(Kind.REFUND_SUCCEEDED, merchant, payment, refund, 999, "EUR")))
                .hasMessageContaining("does not match");
        assertThat(journalOf(merchant, payment).getLast().entries())
                .extracting(LedgerEntry::account)
                .containsExactly(MERCHANT_PAYABLE, REFUNDS_PENDING);
    }

    @Test
    void chargebackWithdrawsAndItsReversalReturns() {
        MerchantId merchant = newMerchantId();
        UUID payment = newId();
        UUID dispute = newId();
        publish(movement(Kind.CAPTURED, merchant, payment, payment, 10_000, "EUR"));
        publish(movement(Kind.CHARGEBACK_WITHDRAWN, merchant, payment, dispute, 10_000, "EUR"));
        assertThat(balance(merchant, MERCHANT_PAYABLE, "EUR")).isZero();
        assertThat(balance(merchant, CHARGEBACKS, "EUR")).isEqualTo(10_000);

        publish(movement(Kind.CHARGEBACK_REVERSED, merchant, payment, dispute, 10_000, "EUR"));
        assertThat(balance(merchant, MERCHANT_PAYABLE, "EUR")).isEqualTo(10_000);
        assertThat(balance(merchant, CHARGEBACKS, "EUR")).isZero();
        assertThatThrownBy(() -> publish(movement(Kind.CHARGEBACK_REVERSED, merchant, payment, newId(), 1, "EUR")))
                .hasMessageContaining("has no CHARGEBACK_WITHDRAWN");
    }

    @Test
    void captureBeyondTheOpenHoldClosesOnlyWhatIsOpenAndReleaseOfAClosedHoldPostsNothing() {
        MerchantId merchant = newMerchantId();
        UUID payment = newId();
        publish(movement(Kind.AUTHORIZATION_HELD, merchant, payment, payment, 1_000, "EUR"));
        publish(movement(Kind.CAPTURED, merchant, payment, newId(), 800, "EUR"));
        publish(movement(Kind.CAPTURED, merchant, payment, newId(), 300, "EUR"));
        UUID lateVoid = newId();
        publish(movement(Kind.AUTHORIZATION_RELEASED, merchant, payment, lateVoid, 200, "EUR"));
        assertThat(journalOf(merchant, payment))
                .extracting(LedgerTransaction::kind)
                .containsExactlyInAnyOrder("AUTHORIZATION_HELD", "CAPTURED", "CAPTURED");

        assertThat(balance(merchant, HOLDS_PAYABLE, "EUR")).isZero();
        assertThat(balance(merchant, HOLDS_RECEIVABLE, "EUR")).isZero();
        assertThat(balance(merchant, MERCHANT_PAYABLE, "EUR")).isEqualTo(1_100);
        assertThat(journalOf(merchant, payment).getLast().entries())
                .extracting(LedgerEntry::amountMinor)
                .containsExactly(300L, 300L, 200L, 200L);
    }

    @Test
    void reversalMirrorsTheOriginalPointsAtItAndHappensOnce() {
        MerchantId merchant = newMerchantId();
        queries.setFee(merchant, "EUR", new FeeRule(100, 0));
        UUID payment = newId();
        publish(movement(Kind.CAPTURED, merchant, payment, payment, 10_000, "EUR"));
        LedgerTransaction capture = journalOf(merchant, payment).getFirst();
        long revenueBefore = balance(null, PLATFORM_REVENUE, "EUR");

        ReversalResult first = ledger.reverse(capture.id(), "captured twice by a PSP bug");
        assertThat(first).isInstanceOf(ReversalResult.Reversed.class);
        LedgerTransaction reversal = ((ReversalResult.Reversed) first).reversal();
        assertThat(reversal.reverses()).isEqualTo(capture.id());
        assertThat(reversal.kind()).isEqualTo("REVERSAL");
        assertThat(reversal.entries())
                .extracting(e -> e.account() + " " + e.side().opposite() + " " + e.amountMinor())
                .containsExactlyElementsOf(capture.entries().stream()
                        .map(e -> e.account() + " " + e.side() + " " + e.amountMinor())
                        .toList());
        assertThat(balance(merchant, MERCHANT_PAYABLE, "EUR")).isZero();
        assertThat(balance(null, PLATFORM_REVENUE, "EUR")).isEqualTo(revenueBefore - 100);

        ReversalResult again = ledger.reverse(capture.id(), "asked twice");
        assertThat(again).isEqualTo(new ReversalResult.AlreadyReversed(reversal));
        assertThat(ledger.reverse(UUID.randomUUID(), "nothing")).isInstanceOf(ReversalResult.NotFound.class);
        // A correction of the correction is itself a reversal.
        assertThat(ledger.reverse(reversal.id(), "the capture was right after all"))
                .isInstanceOf(ReversalResult.Reversed.class);
        assertThat(balance(merchant, MERCHANT_PAYABLE, "EUR")).isEqualTo(9_900);
        assertThat(journalOf(merchant, payment)).hasSize(3);
        assertThat(unbalancedTransactions(merchant)).isZero();
    }

    private static void assertLines(LedgerTransaction tx, Expected... expected) {
        assertThat(tx.entries())
                .extracting(e -> new Expected(e.account(), e.side(), e.amountMinor()))
                .containsExactly(expected);
        assertThat(tx.entries())
                .extracting(LedgerEntry::line)
                .containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(1, expected.length)
                        .boxed()
                        .toList());
    }
}
