package dev.kopek.psp.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.psp.ChargeOutcome;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** L5 as a table: what each PSP answer means. Nothing but an explicit answer is ever certain. */
class SimulatorResponsesTest {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "201 | {\"id\":\"ch_1\",\"status\":\"succeeded\"}                      | Succeeded",
                "200 | {\"id\":\"ch_1\",\"status\":\"succeeded\"}                      | Succeeded",
                "201 | {\"status\":\"succeeded\"}                                       | Unknown",
                "200 | {\"id\":\"ch_1\",\"status\":\"processing\"}                     | Unknown",
                "200 | not json                                                          | Unknown",
                "402 | {\"id\":\"ch_1\",\"status\":\"declined\",\"decline_code\":\"x\"} | Declined",
                "400 | {\"error\":\"invalid_payment_method\"}                          | Failed",
                "401 | {}                                                                | Failed",
                "403 | {}                                                                | Failed",
                "422 | {\"error\":\"idempotency_key_reused\"}                          | Unknown",
                "422 | {\"error\":\"retry_refused\"}                                   | Failed",
                "409 | {\"error\":\"request_in_progress\"}                             | Unknown",
                "409 | {\"error\":\"charge_processing\"}                               | Unknown",
                "409 | {}                                                                | Unknown",
                "409 | {\"error\":\"charge_disputed\"}                                 | Failed",
                "409 | {\"error\":\"amount_exceeds_refundable\"}                       | Failed",
                "409 | {\"error\":\"capture_finalized\"}                               | Failed",
                "429 | {\"error\":\"rate_limited\"}                                    | Unknown",
                "500 | {\"error\":\"internal_error\"}                                  | Unknown",
                "502 | ''                                                                | Unknown",
                "503 | {}                                                                | Unknown",
                "404 | {}                                                                | Unknown"
            })
    void answersAreClassifiedByMeaning(int status, String body, String expected) {
        ChargeOutcome outcome = SimulatorResponses.classify(status, body);
        assertThat(outcome.getClass().getSimpleName()).isEqualTo(expected);
    }
}
