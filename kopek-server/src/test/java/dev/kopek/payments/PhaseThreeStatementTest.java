package dev.kopek.payments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.idempotency.KeyStatus;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentRequest;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.PendingOperations;
import dev.kopek.support.PendingOperations.Pending;
import dev.kopek.support.RoundTrips;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Phase 3 of a payment, a capture, a void and a refund is two statements in one transaction (issue 25): the move
 * (the fence, the resource's compare-and-set, an operation's payment amounts) and the answer (the stored answer and
 * the events, the payment's status, the postings with their fee and open hold computed in SQL). Counted at the driver
 * on the thread that records the outcome ({@link RoundTrips}), never timed; and each outcome checked for what it
 * wrote, so a fused statement that posts or moves the wrong thing fails here too.
 */
class PhaseThreeStatementTest extends IntegrationTest {

    @Autowired
    OutcomeRecorder outcomes;

    @Autowired
    OperationRecording recording;

    @Autowired
    PaymentRecording payments;

    @Autowired
    IdempotencyKeys keys;

    @Autowired
    ApplicationContext context;

    @Test
    void aPartialCaptureIsTwoStatementsAndOneCommit() {
        Api api = capturedOnce();
        PaymentId payment = authorized(api, 10_000);
        Pending capture = phaseOne().capture(payment, 4_000, false);

        RoundTrips.Count count = record(capture, new ChargeOutcome.Succeeded("psp-cap"));

        assertThat(count.statements()).as(count.toString()).isEqualTo(2);
        assertThat(count.commits()).isEqualTo(1);
        assertThat(count.roundTrips()).as(count.toString()).isEqualTo(3);
        JsonNode after = api.get("/v1/payments/" + payment).json();
        assertThat(after.get("status").asString()).isEqualTo("captured");
        assertThat(after.get("amount_captured").asLong()).isEqualTo(4_000);
        assertThat(after.get("amount_capturable").asLong()).isEqualTo(6_000);
        assertThat(postings(payment)).containsExactly("AUTHORIZATION_HELD", "CAPTURED");
        assertThat(openHold(payment)).as("the capture closed 4,000 of the hold").isEqualTo(6_000);
        assertThat(recorder.typesFor(payment.toString())).endsWith("payment.captured");
        assertThat(keys.find(capture.key()).orElseThrow().status()).isEqualTo(KeyStatus.COMPLETED);
    }

    @Test
    void aFinalCaptureAlsoReleasesTheRestInTheSameTwoStatements() {
        Api api = capturedOnce();
        PaymentId payment = authorized(api, 10_000);
        Pending capture = phaseOne().capture(payment, 3_000, true);

        RoundTrips.Count count = record(capture, new ChargeOutcome.Succeeded("psp-cap"));

        assertThat(count.statements()).as(count.toString()).isEqualTo(2);
        assertThat(count.commits()).isEqualTo(1);
        assertThat(postings(payment)).containsExactly("AUTHORIZATION_HELD", "AUTHORIZATION_RELEASED", "CAPTURED");
        assertThat(openHold(payment))
                .as("3,000 captured and 7,000 released: nothing held")
                .isZero();
        assertThat(api.get("/v1/payments/" + payment)
                        .json()
                        .get("amount_capturable")
                        .asLong())
                .isZero();
    }

    @Test
    void aDeclinedCaptureGivesTheReservationBackInTwoStatements() {
        Api api = capturedOnce();
        PaymentId payment = authorized(api, 10_000);
        Pending capture = phaseOne().capture(payment, 10_000, true);

        RoundTrips.Count count = record(capture, new ChargeOutcome.Declined("do_not_honor", null));

        assertThat(count.statements()).as(count.toString()).isEqualTo(2);
        JsonNode after = api.get("/v1/payments/" + payment).json();
        assertThat(after.get("status").asString()).isEqualTo("authorized");
        assertThat(after.get("amount_capturable").asLong()).isEqualTo(10_000);
        assertThat(postings(payment)).containsExactly("AUTHORIZATION_HELD");
    }

    @Test
    void aVoidIsTwoStatements() {
        Api api = newMerchant();
        PaymentId payment = authorized(api, 10_000);
        Pending release = phaseOne().voidOf(payment, 10_000);

        RoundTrips.Count count = record(release, new ChargeOutcome.Succeeded("psp-void"));

        assertThat(count.statements()).as(count.toString()).isEqualTo(2);
        assertThat(count.commits()).isEqualTo(1);
        assertThat(api.get("/v1/payments/" + payment).json().get("status").asString())
                .isEqualTo("voided");
        assertThat(postings(payment)).containsExactly("AUTHORIZATION_HELD", "AUTHORIZATION_RELEASED");
        assertThat(openHold(payment)).isZero();
    }

    @Test
    void aRefundIsTwoStatements() {
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 10_000, "EUR", "pm_ok"));
        assertThat(paid.status()).isEqualTo(201);
        PaymentId payment = PaymentId.parse(paid.text("id")).orElseThrow();
        Pending refund = phaseOne().refund(payment, 4_000);

        RoundTrips.Count count = record(refund, new ChargeOutcome.Succeeded("psp-re"));

        assertThat(count.statements()).as(count.toString()).isEqualTo(2);
        assertThat(count.commits()).isEqualTo(1);
        JsonNode after = api.get("/v1/payments/" + payment).json();
        assertThat(after.get("status").asString()).isEqualTo("partially_refunded");
        assertThat(after.get("amount_refunded").asLong()).isEqualTo(4_000);
        assertThat(postings(payment)).containsExactly("CAPTURED", "REFUND_RESERVED", "REFUND_SUCCEEDED");
    }

    @Test
    void aRefusedRefundGivesItsReservationBackInTwoStatements() {
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 10_000, "EUR", "pm_ok"));
        PaymentId payment = PaymentId.parse(paid.text("id")).orElseThrow();
        Pending refund = phaseOne().refund(payment, 4_000);

        RoundTrips.Count count = record(refund, new ChargeOutcome.Failed("refused"));

        assertThat(count.statements()).as(count.toString()).isEqualTo(2);
        JsonNode after = api.get("/v1/payments/" + payment).json();
        assertThat(after.get("status").asString()).isEqualTo("captured");
        assertThat(after.get("amount_refund_pending").asLong()).isZero();
        assertThat(postings(payment)).containsExactly("CAPTURED", "REFUND_RELEASED", "REFUND_RESERVED");
    }

    @Test
    void aPaymentCapturedAtOnceIsTwoStatements() {
        Api api = newMerchant();
        assertThat(api.pay(Api.newKey(), Api.payment(newReference(), 1_000, "EUR", "pm_ok"))
                        .status())
                .as("the merchant's accounts exist")
                .isEqualTo(201);
        PendingPayment pending = pendingPayment(api, "automatic");

        RoundTrips.Count count = RoundTrips.of(() -> outcomes.record(
                payments, pending.payment(), pending.key(), 1, new ChargeOutcome.Succeeded("ch"), null));

        assertThat(count.statements()).as(count.toString()).isEqualTo(2);
        assertThat(count.commits()).isEqualTo(1);
        assertThat(api.get("/v1/payments/" + pending.payment().id())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("captured");
        assertThat(postings(pending.payment().id())).containsExactly("CAPTURED");
    }

    @Test
    void anAuthorizedPaymentIsTwoStatements() {
        Api api = newMerchant();
        authorized(api, 1_000);
        PendingPayment pending = pendingPayment(api, "manual");

        RoundTrips.Count count = RoundTrips.of(() -> outcomes.record(
                payments,
                pending.payment(),
                pending.key(),
                1,
                new ChargeOutcome.Authorized("ch", clock().instant().plusSeconds(86_400)),
                null));

        assertThat(count.statements()).as(count.toString()).isEqualTo(2);
        assertThat(api.get("/v1/payments/" + pending.payment().id())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("authorized");
        assertThat(postings(pending.payment().id())).containsExactly("AUTHORIZATION_HELD");
        assertThat(openHold(pending.payment().id())).isEqualTo(1_000);
    }

    /** A payment after its phase 1, and its key owned by attempt 1. */
    private record PendingPayment(Payment payment, ClientKey key) {}

    private PendingPayment pendingPayment(Api api, String captureMethod) {
        PaymentId some = authorized(api, 100);
        MerchantId merchant = phaseOne().merchantOf(some);
        ClientKey ck = new ClientKey(merchant, "payment.create", Api.newKey());
        PaymentRequest request =
                new PaymentRequest(newReference(), Money.of(1_000, "EUR"), "pm_ok", captureMethod, null, null);
        Payment inserted = PendingPayments.claimAndInsert(context, ck, request);
        return new PendingPayment(inserted, ck);
    }

    /**
     * A merchant whose ledger accounts for captures exist: an account is created by the first posting that needs it
     * (and then cached), which is not what a capture costs.
     */
    private Api capturedOnce() {
        Api api = newMerchant();
        PaymentId payment = authorized(api, 1_000);
        assertThat(api.post("/v1/payments/" + payment + "/capture", Api.newKey(), "{}")
                        .status())
                .isEqualTo(200);
        return api;
    }

    private RoundTrips.Count record(Pending pending, ChargeOutcome outcome) {
        return RoundTrips.of(() -> outcomes.record(recording, pending.operation(), pending.key(), 1, outcome, null));
    }

    private PaymentId authorized(Api api, long amount) {
        Api.Response authorized = api.pay(Api.newKey(), Api.manualPayment(newReference(), amount));
        assertThat(authorized.status()).isEqualTo(201);
        return PaymentId.parse(authorized.text("id")).orElseThrow();
    }

    private PendingOperations phaseOne() {
        return PendingOperations.in(context);
    }

    private List<String> postings(PaymentId payment) {
        return jdbc.sql("SELECT kind FROM ledger_transactions WHERE payment_id = :id ORDER BY kind")
                .param("id", payment.value())
                .query(String.class)
                .list();
    }

    /** What the payment's hold still holds, from the journal. */
    private long openHold(PaymentId payment) {
        return jdbc.sql("""
                SELECT COALESCE(sum(CASE e.side WHEN 'credit' THEN e.amount_minor ELSE -e.amount_minor END), 0)
                  FROM ledger_transactions t
                  JOIN ledger_entries e ON e.transaction_id = t.id
                  JOIN ledger_accounts a ON a.id = e.account_id
                 WHERE t.payment_id = :id AND a.type = 'HOLDS_PAYABLE'
                """).param("id", payment.value()).query(Long.class).single();
    }
}
