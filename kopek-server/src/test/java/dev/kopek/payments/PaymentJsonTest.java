package dev.kopek.payments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentStatus;
import dev.kopek.psp.NextAction;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The payment's JSON byte for byte: a stored answer is replayed as stored, and an answer rendered again (a read,
 * an event) must say the same thing in the same order, with nulls written out and text escaped as JSON wants.
 */
class PaymentJsonTest {

    private static final PaymentId ID = new PaymentId(UUID.fromString("01a24d65-e8b7-7f08-bcf9-ba87d799e380"));
    private static final MerchantId MERCHANT = new MerchantId(UUID.fromString("01a24d63-ae5b-74a2-9af1-844b6f537b7b"));
    private static final Instant CREATED = Instant.parse("2026-12-06T22:07:34.072Z");
    private static final Instant UPDATED = Instant.parse("2026-12-06T22:07:35Z");

    @Test
    void aCapturedPaymentWithNothingOptional() {
        Payment captured = payment(
                PaymentStatus.CAPTURED,
                new Payment.Amounts(4990, 4990, 0, 0, 0, 0, 0),
                null,
                null,
                "ch_RXG1sIG626wEO5yYl8oWVHMB",
                null,
                null);

        assertThat(PaymentJson.render(captured))
                .isEqualTo("{\"id\":\"pay_01a24d65e8b77f08bcf9ba87d799e380\",\"object\":\"payment\","
                        + "\"reference\":\"order \\\"42\\\" \u00e9\\n\",\"status\":\"captured\",\"amount\":4990,"
                        + "\"currency\":\"EUR\",\"amount_authorized\":4990,\"amount_captured\":4990,"
                        + "\"amount_refunded\":0,\"amount_capturable\":0,\"amount_refund_pending\":0,"
                        + "\"amount_disputed\":0,\"capture_method\":\"automatic\",\"capture_before\":null,"
                        + "\"payment_method\":\"pm_ok\",\"description\":null,\"metadata\":{},"
                        + "\"psp_reference\":\"ch_RXG1sIG626wEO5yYl8oWVHMB\",\"decline_code\":null,"
                        + "\"failure_reason\":null,\"next_action\":null,\"created_at\":\"2026-12-06T22:07:34.072Z\","
                        + "\"updated_at\":\"2026-12-06T22:07:35Z\"}");
    }

    @Test
    void aPaymentWaitingForTheCustomerWithEveryField() {
        Payment waiting = payment(
                PaymentStatus.UNKNOWN,
                new Payment.Amounts(0, 0, 0, 0, 0, 0, 0),
                "{\"order\":\"A-1\",\"n\":1.50,\"tags\":[\"x\",null],\"deep\":{\"b\":true}}",
                "3-D Secure",
                null,
                "insufficient_funds",
                PaymentJson.nextAction(new NextAction("redirect", "https://psp.example/3ds?a=1&b=2")));

        assertThat(PaymentJson.render(waiting))
                .isEqualTo("{\"id\":\"pay_01a24d65e8b77f08bcf9ba87d799e380\",\"object\":\"payment\","
                        + "\"reference\":\"order \\\"42\\\" \u00e9\\n\",\"status\":\"requires_action\",\"amount\":4990,"
                        + "\"currency\":\"EUR\",\"amount_authorized\":0,\"amount_captured\":0,"
                        + "\"amount_refunded\":0,\"amount_capturable\":0,\"amount_refund_pending\":0,"
                        + "\"amount_disputed\":0,\"capture_method\":\"automatic\","
                        + "\"capture_before\":\"2026-12-13T22:07:34Z\",\"payment_method\":\"pm_ok\","
                        + "\"description\":\"3-D Secure\",\"metadata\":{\"order\":\"A-1\",\"n\":1.5,"
                        + "\"tags\":[\"x\",null],\"deep\":{\"b\":true}},\"psp_reference\":null,"
                        + "\"decline_code\":\"insufficient_funds\",\"failure_reason\":null,"
                        + "\"next_action\":{\"type\":\"redirect\",\"redirect_url\":\"https://psp.example/3ds?a=1&b=2\"},"
                        + "\"created_at\":\"2026-12-06T22:07:34.072Z\",\"updated_at\":\"2026-12-06T22:07:35Z\"}");
    }

    @Test
    void aListIsItsPaymentsInOrder() {
        Payment one =
                payment(PaymentStatus.DECLINED, new Payment.Amounts(0, 0, 0, 0, 0, 0, 0), null, null, null, null, null);
        String alone = PaymentJson.render(one);

        assertThat(PaymentJson.renderList(List.of(one, one)))
                .isEqualTo("{\"object\":\"list\",\"data\":[" + alone + "," + alone + "]}");
        assertThat(PaymentJson.renderList(List.of())).isEqualTo("{\"object\":\"list\",\"data\":[]}");
    }

    private static Payment payment(
            PaymentStatus status,
            Payment.Amounts amounts,
            String metadata,
            String description,
            String pspReference,
            String declineCode,
            String nextAction) {
        return new Payment(
                ID,
                MERCHANT,
                "order \"42\" \u00e9\n",
                "key",
                "provider-key",
                Money.of(4990, "EUR"),
                amounts,
                "pm_ok",
                "automatic",
                description,
                metadata,
                status,
                1,
                pspReference,
                declineCode,
                null,
                nextAction == null ? null : CREATED.plusSeconds(7 * 24 * 3600).minusMillis(72),
                false,
                CREATED,
                UPDATED,
                nextAction,
                "default");
    }
}
