package dev.kopek.console.web;

import dev.kopek.access.AdminSessions;
import dev.kopek.console.ConsoleFormat;
import dev.kopek.platform.DatabaseOutages;
import dev.kopek.platform.LogContext;
import dev.kopek.platform.ReadReplica;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.ui.Model;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ModelAttribute;

/**
 * What every console page shows (who is logged in, the CSRF token for its forms), and the console's own error
 * page: a person gets a sentence, never a stack trace or a problem+json body; nothing half-done is left behind.
 */
@ControllerAdvice(
        assignableTypes = {ConsolePagesController.class, ConsoleActionsController.class, ConsoleLoginController.class})
@Order(Ordered.HIGHEST_PRECEDENCE)
class ConsoleModel {

    private static final Logger log = LoggerFactory.getLogger(ConsoleModel.class);

    private final AdminSessions sessions;
    private final ReadReplica replica;
    private final DatabaseOutages outages;

    ConsoleModel(AdminSessions sessions, ReadReplica replica, DatabaseOutages outages) {
        this.sessions = sessions;
        this.replica = replica;
        this.outages = outages;
    }

    @ModelAttribute
    void common(HttpServletRequest request, Model model) {
        model.addAttribute("admin", sessions.name(request));
        model.addAttribute("csrf", sessions.csrfToken(request));
        model.addAttribute("csrfField", AdminSessions.CSRF_FIELD);
        model.addAttribute("replica", replicaLag());
    }

    /**
     * When the console's lists come from a read replica, how far behind it is, in words for the page's header
     * (seed 000: a person looking at a replica must know that the last seconds may be missing); null without one.
     */
    private String replicaLag() {
        if (!replica.separate()) {
            return null;
        }
        try {
            return replica.lag()
                    .map(lag -> "lists read from a replica " + ConsoleFormat.duration(lag) + " behind")
                    .orElse("lists read from a replica (lag unknown)");
        } catch (DataAccessException e) {
            log.warn("the read replica did not answer its lag: {}", e.getMessage());
            return "lists read from a replica that does not answer";
        }
    }

    /** Input the console refuses: a 400 page that says why (404 for an id that names nothing). */
    @ExceptionHandler(ConsoleInputException.class)
    String refused(ConsoleInputException e, Model model, HttpServletResponse response) {
        response.setStatus(e.isNotFound() ? HttpServletResponse.SC_NOT_FOUND : HttpServletResponse.SC_BAD_REQUEST);
        model.addAttribute("title", e.isNotFound() ? "Not found" : "Not done");
        model.addAttribute("message", e.getMessage());
        model.addAttribute("requestId", LogContext.requestId());
        return "console/error";
    }

    /**
     * What Spring MVC refuses before the handler runs (a wrong method or media type, a missing or mistyped
     * parameter) keeps its 4xx status, as a page.
     */
    @ExceptionHandler(ErrorResponseException.class)
    String framework(ErrorResponseException e, Model model, HttpServletResponse response) {
        return frameworkRefusal(e.getStatusCode().value(), model, response);
    }

    @ExceptionHandler({
        org.springframework.web.HttpRequestMethodNotSupportedException.class,
        org.springframework.web.HttpMediaTypeException.class,
        org.springframework.web.bind.ServletRequestBindingException.class,
        org.springframework.web.method.annotation.MethodArgumentTypeMismatchException.class,
        org.springframework.web.multipart.MultipartException.class,
        org.springframework.http.converter.HttpMessageNotReadableException.class,
        // A form whose bytes are not UTF-8 (or not percent-encoded properly): Tomcat refuses to read it.
        org.apache.tomcat.util.http.InvalidParameterException.class
    })
    String badRequest(Exception e, Model model, HttpServletResponse response) {
        int status = e instanceof org.springframework.web.ErrorResponse known
                ? known.getStatusCode().value()
                : e instanceof org.apache.tomcat.util.http.InvalidParameterException unread
                        ? unread.getErrorCode()
                        : 400;
        return frameworkRefusal(status, model, response);
    }

    private static String frameworkRefusal(int status, Model model, HttpServletResponse response) {
        response.setStatus(status >= 400 && status < 500 ? status : 400);
        model.addAttribute("title", "Not done");
        model.addAttribute("message", "The console could not read this request; nothing was changed.");
        model.addAttribute("requestId", LogContext.requestId());
        return "console/error";
    }

    /**
     * Anything else is a logged 500 page — except the database being away (a failover): a 503 page saying so, with
     * {@code Retry-After}, counted and warned about like every request that meets it.
     */
    @ExceptionHandler(Exception.class)
    String failed(Exception e, Model model, HttpServletRequest request, HttpServletResponse response) {
        if (outages.problemFor(e, request).isPresent()) {
            response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            response.setHeader(HttpHeaders.RETRY_AFTER, DatabaseOutages.RETRY_AFTER_SECONDS);
            model.addAttribute("title", "Database unavailable");
            model.addAttribute(
                    "message",
                    "The database is unavailable for a moment (a failover or a restart); nothing was changed. Try"
                            + " again in a few seconds.");
            model.addAttribute("requestId", LogContext.requestId());
            return "console/error";
        }
        response.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
        log.error("console page failed", e);
        model.addAttribute("title", "Something went wrong");
        model.addAttribute("message", "The page could not be shown; the error has been logged with this request's id.");
        model.addAttribute("requestId", LogContext.requestId());
        return "console/error";
    }
}
