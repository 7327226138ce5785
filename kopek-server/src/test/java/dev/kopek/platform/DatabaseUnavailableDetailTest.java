package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.SQLException;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.mock.web.MockHttpServletRequest;

/**
 * Found in review (high availability): the 503 database_unavailable told every client to "retry with the same
 * Idempotency-Key", also a GET, which has no key. The detail now fits the request: the key hint for a request sent
 * with one, a plain retry hint for any other.
 */
class DatabaseUnavailableDetailTest {

    private final DatabaseOutages outages = new DatabaseOutages(new SimpleMeterRegistry(), Clock.systemUTC());
    private final Throwable sessionEnded = new DataAccessResourceFailureException(
            "read", new SQLException("terminating connection due to administrator command", "57P01"));

    @Test
    void aReadWithoutAKeyIsToldToRetryWithoutMentioningOne() {
        MockHttpServletRequest read = new MockHttpServletRequest("GET", "/v1/payments/pay_1");

        ApiProblem problem = outages.problemFor(sessionEnded, read).orElseThrow();

        assertThat(problem.code()).isEqualTo("database_unavailable");
        assertThat(problem.getMessage())
                .contains("retry after Retry-After seconds")
                .doesNotContain("Idempotency-Key");
    }

    @Test
    void aPostWithAKeyIsToldToRetryWithTheSameKey() {
        MockHttpServletRequest post = new MockHttpServletRequest("POST", "/v1/payments");
        post.addHeader("Idempotency-Key", "k-1");

        ApiProblem problem = outages.problemFor(sessionEnded, post).orElseThrow();

        assertThat(problem.code()).isEqualTo("database_unavailable");
        assertThat(problem.getMessage()).contains("retry with the same Idempotency-Key after Retry-After seconds");
    }
}
