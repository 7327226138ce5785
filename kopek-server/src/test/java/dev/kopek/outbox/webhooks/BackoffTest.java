package dev.kopek.outbox.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void theScheduleDoublesFromThirtySecondsUpToSixHours() {
        assertThat(Backoff.nominal(1)).isEqualTo(Duration.ofSeconds(30));
        assertThat(Backoff.nominal(2)).isEqualTo(Duration.ofMinutes(1));
        assertThat(Backoff.nominal(10)).isEqualTo(Duration.ofMinutes(256));
        assertThat(Backoff.nominal(11)).isEqualTo(Duration.ofHours(6));
        assertThat(Backoff.nominal(1_000)).isEqualTo(Duration.ofHours(6));
    }

    @Test
    void jitterStaysWithinTwentyPercent() {
        Random random = new Random(42);
        for (int attempt = 1; attempt <= 30; attempt++) {
            long nominal = Backoff.nominal(attempt).toMillis();
            long jittered = Backoff.withJitter(attempt, random).toMillis();
            assertThat(jittered).isBetween(Math.round(nominal * 0.8), Math.round(nominal * 1.2));
        }
    }

    @Test
    void seventyTwoHoursHoldTwentyOneAttemptsAtTheNominalSchedule() {
        Duration elapsed = Duration.ZERO;
        int attempts = 1;
        while (!elapsed.plus(Backoff.nominal(attempts))
                .minus(Duration.ofHours(72))
                .isPositive()) {
            elapsed = elapsed.plus(Backoff.nominal(attempts));
            attempts++;
        }
        assertThat(attempts).isEqualTo(21);
        assertThat(elapsed).isEqualTo(Duration.ofHours(68).plusMinutes(31).plusSeconds(30));
    }
}
