package dev.kopek.platform;

import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error leaves as {@code application/problem+json} with a stable {@code code}. Framework errors
 * (unknown path, wrong method or media type) get codes too; anything unexpected is a logged 500 that says
 * nothing about internals — except that the database went away or cannot take writes (a failover): that is a
 * 503 to retry with the same key ({@link DatabaseOutages}).
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    private final DatabaseOutages outages;

    ProblemHandler(DatabaseOutages outages) {
        this.outages = outages;
    }

    @ExceptionHandler(ApiProblem.class)
    ResponseEntity<ProblemDetail> apiProblem(ApiProblem problem) {
        ProblemDetail body = Problems.detail(problem.status(), problem.code(), problem.getMessage());
        if (problem.field() != null) {
            body.setProperty("field", problem.field());
        }
        var response = ResponseEntity.status(problem.status()).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        problem.headers().forEach(response::header);
        return response.body(body);
    }

    /** Tomcat refuses a malformed query string (e.g. an empty parameter name, {@code ?a&=}) when it is read. */
    @ExceptionHandler(org.apache.tomcat.util.http.InvalidParameterException.class)
    ResponseEntity<ProblemDetail> invalidQuery(org.apache.tomcat.util.http.InvalidParameterException e) {
        return ResponseEntity.status(HttpStatus.BAD_REQUEST)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(Problems.detail(HttpStatus.BAD_REQUEST, "invalid_query", "The query string is malformed."));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e, HttpServletRequest request) {
        Optional<ApiProblem> unavailable = outages.problemFor(e, request);
        if (unavailable.isPresent()) {
            return apiProblem(unavailable.get());
        }
        log.error("unexpected error", e);
        return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(Problems.detail(
                        HttpStatus.INTERNAL_SERVER_ERROR,
                        "internal_error",
                        "An internal error occurred; it has been logged."));
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(
            Exception ex, Object body, HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        ProblemDetail detail = body instanceof ProblemDetail pd ? pd : ProblemDetail.forStatus(statusCode);
        String code = Problems.codeFor(statusCode.value());
        detail.setType(URI.create(Problems.TYPE_BASE + code));
        // The title every other problem has (the code in words), not Spring's reason phrase ("Not Found").
        detail.setTitle(code.replace('_', ' '));
        detail.setProperty("code", code);
        Problems.withRequestId(detail);
        return ResponseEntity.status(statusCode)
                .headers(headers)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(detail);
    }
}
