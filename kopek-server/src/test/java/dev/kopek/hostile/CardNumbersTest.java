package dev.kopek.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.platform.CardNumbers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CardNumbersTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "4111111111111111",
                "4111 1111 1111 1111",
                "4111-1111-1111-1111",
                "x4111111111111111y",
                "ref 12 4111 1111 1111 1111 99",
                "378282246310005",
                "3782 822463 10005",
                "6011111111111117",
                "4222222222222",
                "4111111111111111 2",
                "4111 - 1111 - 1111 - 1111",
                "\u0664\u0661\u0661\u0661\u0661\u0661\u0661\u0661\u0661\u0661\u0661\u0661\u0661\u0661\u0661\u0661",
                "4111\u00a01111\u00a01111\u00a01111",
                "pm_4111111111111111"
            })
    void findsCardNumbersInsideText(String text) {
        assertThat(CardNumbers.containsCardNumber(text)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "4111111111111112",
                "411111111111",
                "41111111111111111111111",
                "2026-12-03",
                "+7 916 123-45-67",
                "order-1001",
                "4111 1111",
                "4111111111111111111111",
                "4111  ,  1111"
            })
    void leavesOtherNumbersAlone(String text) {
        assertThat(CardNumbers.containsCardNumber(text)).isFalse();
    }
}
