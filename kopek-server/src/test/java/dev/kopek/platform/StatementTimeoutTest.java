package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.IntegrationTest;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.http.HttpStatus;
import org.springframework.mock.web.MockHttpServletRequest;

/**
 * Issue 24, defect 8: Kopek's sessions run with a statement timeout (kopek.db.statement-timeout, 25 s), and a
 * statement PostgreSQL cancelled at it is answered 503 database_unavailable with Retry-After, not 500.
 */
class StatementTimeoutTest extends IntegrationTest {

    @Autowired
    DatabaseOutages outages;

    @Test
    void kopeksSessionsRunWithAStatementTimeout() {
        assertThat(jdbc.sql("SHOW statement_timeout").query(String.class).single())
                .isEqualTo("25s");
    }

    @Test
    void aStatementCancelledAtTheTimeoutIsA503() {
        ApiProblem problem = outages.problemFor(
                        new QueryTimeoutException(
                                "balance read",
                                new SQLException("canceling statement due to statement timeout", "57014")),
                        new MockHttpServletRequest("GET", "/v1/balance"))
                .orElseThrow();

        assertThat(problem.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(problem.code()).isEqualTo("database_unavailable");
    }
}
