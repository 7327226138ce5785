package dev.kopek.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.kopek.chaos.ClientLog.Ack;
import dev.kopek.chaos.Evidence.Operation;
import dev.kopek.chaos.Evidence.Payment;
import dev.kopek.chaos.Evidence.TopicEvent;
import dev.kopek.chaos.HaAudit.Fault;
import dev.kopek.chaos.HaAudit.Gap;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The HA checks pass on a database that holds every acknowledged write and fail on one that lost any. */
class HaAuditTest {

    private static final UUID PAYMENT = UUID.fromString("0190f3a0-0000-7000-8000-000000000001");
    private static final UUID REFUND = UUID.fromString("0190f3a0-0000-7000-8000-000000000002");
    private static final long SECOND = 1_000_000_000L;

    private static Ack payment(String status, long captured, long refunded) {
        String body = "{\"id\":\"" + PublicIds.payment(PAYMENT) + "\",\"object\":\"payment\",\"status\":\"" + status
                + "\",\"amount_captured\":" + captured + ",\"amount_refunded\":" + refunded + "}";
        return new Ack("payment", "o1-pay", body, 0, 0);
    }

    private static Ack refund(String status) {
        String body =
                "{\"id\":\"" + PublicIds.refund(REFUND) + "\",\"object\":\"refund\",\"status\":\"" + status + "\"}";
        return new Ack("refund", "o1-ref1", body, 0, 0);
    }

    private static Payment row(String status, long captured, long refunded) {
        return new Payment(PAYMENT, "o1", "pk1", "ch_1", status, 1000, 1000, captured, refunded, 0, 0, 0, 3);
    }

    private static Operation refundRow(String status) {
        return new Operation(REFUND, PAYMENT, "refund", 400, status, "rk1");
    }

    /** The payment's events: captured, then partially refunded; the refund's: pending, then succeeded. */
    private static final List<TopicEvent> HISTORY = List.of(
            new TopicEvent("evt_p1", PublicIds.payment(PAYMENT), 1, 0, 0, "captured"),
            new TopicEvent("evt_p2", PublicIds.payment(PAYMENT), 2, 0, 1, "partially_refunded"),
            new TopicEvent("evt_r1", PublicIds.refund(REFUND), 1, 1, 0, "pending"),
            new TopicEvent("evt_r2", PublicIds.refund(REFUND), 2, 1, 1, "succeeded"));

    @Test
    void anAcknowledgedWriteThatIsThereOrFurtherAlongIsNotLost() {
        List<Ack> acks = List.of(
                payment("captured", 1000, 0), payment("processing", 0, 0), refund("pending"), refund("succeeded"));
        assertThat(HaAudit.lost(
                        acks, List.of(row("PARTIALLY_REFUNDED", 1000, 400)), List.of(refundRow("SUCCEEDED")), HISTORY))
                .isEmpty();
    }

    @Test
    void aPaymentMissingFromTheDatabaseIsLost() {
        assertThat(HaAudit.lost(List.of(payment("captured", 1000, 0)), List.of(), List.of(), HISTORY))
                .singleElement()
                .asString()
                .contains("not in the database");
    }

    /** The capture was answered, then lost with its event: the row is back to authorized. */
    @Test
    void aPaymentBackInAStateBeforeTheAnswerIsLost() {
        List<TopicEvent> authorizedOnly =
                List.of(new TopicEvent("evt_p1", PublicIds.payment(PAYMENT), 1, 0, 0, "authorized"));
        assertThat(HaAudit.lost(
                        List.of(payment("captured", 1000, 0)),
                        List.of(row("AUTHORIZED", 0, 0)),
                        List.of(),
                        authorizedOnly))
                .singleElement()
                .asString()
                .contains("answered captured but is authorized");
    }

    @Test
    void lessMoneyCapturedOrRefundedThanAnsweredIsLost() {
        assertThat(HaAudit.lost(
                        List.of(payment("partially_refunded", 1000, 400)),
                        List.of(row("PARTIALLY_REFUNDED", 1000, 0)),
                        List.of(),
                        HISTORY))
                .hasSize(1);
    }

    @Test
    void aRefundMissingOrWithAnotherOutcomeIsLost() {
        assertThat(HaAudit.lost(List.of(refund("succeeded")), List.of(), List.of(), HISTORY))
                .hasSize(1);
        assertThat(HaAudit.lost(List.of(refund("succeeded")), List.of(), List.of(refundRow("FAILED")), List.of()))
                .hasSize(1);
    }

    @Test
    void anAnswerNamingNothingCountsAsLost() {
        assertThat(HaAudit.lost(List.of(new Ack("void", "k", "{}", 0, 0)), List.of(), List.of(), HISTORY))
                .hasSize(1);
    }

    @Test
    void publicIdsParseBackToTheirUuid() {
        assertThat(HaAudit.uuid(PublicIds.payment(PAYMENT))).isEqualTo(PAYMENT);
        assertThat(HaAudit.uuid(PublicIds.refund(REFUND))).isEqualTo(REFUND);
        assertThat(HaAudit.uuid("pay_123")).isNull();
        assertThat(HaAudit.uuid(null)).isNull();
    }

    /** Payments acknowledged every 100 ms from 0 to 40 s, except for the 8 s after a fault at 20 s. */
    @Test
    void theGapIsTheLongestPauseBetweenAcknowledgedWritesAroundTheFault() {
        List<Ack> acks = new ArrayList<>();
        for (long t = 0; t < 40 * SECOND; t += SECOND / 10) {
            if (t < 20 * SECOND || t >= 28 * SECOND) {
                acks.add(new Ack("payment", "k" + t, "{}", t - SECOND / 20, t));
            }
        }
        Fault fault = new Fault(HaAudit.FAILOVER, "pg1 → pg2", 20 * SECOND, 30 * SECOND);
        Gap gap = HaAudit.gaps(acks, List.of(fault)).getFirst();
        assertThat(gap.gapMillis()).isBetween(8_000L, 8_200L);
        assertThat(gap.before()).isCloseTo(10.0, within(0.01));
        assertThat(gap.during()).isCloseTo(2.0, within(0.01));
        assertThat(gap.after()).isCloseTo(100 / 15.0, within(0.01));
    }

    @Test
    void writesThatNeverResumeMakeTheGapLastToTheNextFault() {
        List<Ack> acks = List.of(new Ack("payment", "k", "{}", 0, 9 * SECOND));
        List<Fault> faults = List.of(
                new Fault(HaAudit.FAILOVER, "", 10 * SECOND, 20 * SECOND),
                new Fault(HaAudit.SWITCHOVER, "", 40 * SECOND, 45 * SECOND));
        assertThat(HaAudit.gaps(acks, faults).getFirst().gapMillis()).isEqualTo(31_000L);
    }

    @Test
    void percentilesAreByNearestRank() {
        assertThat(HaAudit.percentile(List.of(10L, 30L, 20L, 40L), 50)).isEqualTo(20L);
        assertThat(HaAudit.percentile(List.of(10L, 30L, 20L, 40L), 100)).isEqualTo(40L);
        assertThat(HaAudit.percentile(List.of(), 50)).isZero();
        assertThat(HaAudit.acknowledged(List.of(payment("captured", 1000, 0), payment("captured", 1000, 0))))
                .isEqualTo(1);
    }
}
