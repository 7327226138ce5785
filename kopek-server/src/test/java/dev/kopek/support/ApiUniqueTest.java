package dev.kopek.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.platform.CardNumbers;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Tests build references as {@code Api.unique(prefix) + "-" + i}, and Kopek refuses any request text holding a card
 * number. Such a value must never look like one, or a test fails by chance with 400 card_data_not_accepted.
 */
class ApiUniqueTest {

    @Test
    void aUniqueValueWithACountAppendedNeverHoldsACardNumber() {
        // With the old value (no closing letter) about 1 in 3,000 of these held one: 20,000 found one almost surely.
        assertThat(IntStream.range(0, 20_000)
                        .mapToObj(i -> Api.unique("calm") + "-" + (i % 100))
                        .filter(CardNumbers::containsCardNumber))
                .isEmpty();
    }
}
