package dev.kopek.platform;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Where the servlet container sends a request that failed outside a controller: a {@code sendError} from a
 * filter or from Tomcat's default servlet (a {@code TRACE}), or an exception no handler resolved (an interceptor
 * refusing a CORS preflight). It answers problem+json with a stable code, whatever {@code Accept} says. Called
 * directly, {@code /error} is a page that does not exist: 404, never the framework's 500 with status 999.
 */
@RestController
class ProblemErrorController implements ErrorController {

    private static final Logger log = LoggerFactory.getLogger(ProblemErrorController.class);

    private final DatabaseOutages outages;

    ProblemErrorController(DatabaseOutages outages) {
        this.outages = outages;
    }

    @RequestMapping("${server.error.path:${error.path:/error}}")
    ResponseEntity<String> error(HttpServletRequest request) {
        ApiProblem problem = apiProblem(request.getAttribute(RequestDispatcher.ERROR_EXCEPTION));
        if (problem == null && request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof Throwable failure) {
            problem = outages.problemFor(failure, request).orElse(null);
        }
        if (problem != null) {
            var response = ResponseEntity.status(problem.status()).contentType(MediaType.APPLICATION_PROBLEM_JSON);
            problem.headers().forEach(response::header);
            return response.body(
                    Problems.json(problem.status().value(), problem.code(), problem.getMessage(), problem.field()));
        }
        int status = status(request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE));
        if (status >= 500) {
            Object exception = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
            log.error("unexpected error on an error dispatch", exception instanceof Throwable t ? t : null);
        }
        String detail = status == 404
                ? "No such resource."
                : status >= 500 ? "An internal error occurred; it has been logged." : "The request was refused.";
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(Problems.json(status, Problems.codeFor(status), detail));
    }

    /** No status means nobody failed: the client asked for {@code /error} itself, which is not a resource. */
    private static int status(Object attribute) {
        if (attribute instanceof Integer status && status >= 400 && status <= 599) {
            return status;
        }
        return 404;
    }

    private static ApiProblem apiProblem(Object attribute) {
        Throwable cause = attribute instanceof Throwable t ? t : null;
        for (int depth = 0; cause != null && depth < 10; depth++) {
            if (cause instanceof ApiProblem problem) {
                return problem;
            }
            cause = cause.getCause();
        }
        return null;
    }
}
