package dev.kopek.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Failed console log-ins are limited per address and per named identity, each in its own window. */
class LoginThrottleTest {

    private final MutableClock clock = new MutableClock();
    private final LoginThrottle throttle = new LoginThrottle(clock, 5, 3, Duration.ofMinutes(15));

    @Test
    void anAddressIsRefusedAfterItsFailuresUntilTheWindowEnds() {
        for (int i = 0; i < 5; i++) {
            assertThat(throttle.check("10.0.0.1", "guess")).isInstanceOf(LoginThrottle.Verdict.Allowed.class);
            throttle.failed("10.0.0.1", "guess");
        }
        assertThat(throttle.check("10.0.0.1", "the-right-token"))
                .isInstanceOfSatisfying(
                        LoginThrottle.Verdict.Refused.class,
                        refused -> assertThat(refused.retryAfterSeconds())
                                .as("until the window of the first failure ends")
                                .isBetween(1L, 900L));
        assertThat(throttle.check("10.0.0.2", "guess"))
                .as("another address")
                .isInstanceOf(LoginThrottle.Verdict.Allowed.class);
        clock.advance(Duration.ofMinutes(15));
        assertThat(throttle.check("10.0.0.1", "guess")).isInstanceOf(LoginThrottle.Verdict.Allowed.class);
    }

    @Test
    void guessesAtOneNamedIdentityFromManyAddressesAreLimitedTogether() {
        String identity = "kad_0123abcd";
        for (int i = 0; i < 3; i++) {
            throttle.failed("10.1.0." + i, identity + "guess" + i);
        }
        assertThat(throttle.check("10.1.0.99", identity + "anything"))
                .isInstanceOf(LoginThrottle.Verdict.Refused.class);
        assertThat(throttle.check("10.1.0.99", "kad_99999999anything"))
                .as("another identity")
                .isInstanceOf(LoginThrottle.Verdict.Allowed.class);
        assertThat(throttle.check("10.1.0.99", "not-a-named-token"))
                .as("the bootstrap token names no identity")
                .isInstanceOf(LoginThrottle.Verdict.Allowed.class);
    }

    @Test
    void onlyTokensShapedLikeANamedIdentitysNameOne() {
        assertThat(LoginThrottle.identityPrefix("kad_0123abcdef")).isEqualTo("kad_0123abcd");
        assertThat(LoginThrottle.identityPrefix("kad_0123abcd")).isNull();
        assertThat(LoginThrottle.identityPrefix("test-admin-token")).isNull();
        assertThat(LoginThrottle.identityPrefix(null)).isNull();
    }
}
