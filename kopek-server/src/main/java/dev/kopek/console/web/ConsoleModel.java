package dev.kopek.console.web;

import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * What every console page shows (who is logged in, the CSRF token for its forms), and the console's own error
 * page: a person gets a sentence, never a stack trace or a problem+json body; nothing half-done is left behind.
 */
@ControllerAdvice(assignableTypes = {ConsolePagesController.class, ConsoleActionsController.class,
        ConsoleLoginController.class})
@Order(Ordered.HIGHEST_PRECEDENCE)
class ConsoleModel {

    private static final Logger log = LoggerFactory.getLogger(ConsoleModel.class);

    @ModelAttribute
    void common(HttpServletRequest request, Model model) {
        model.addAttribute("admin", ConsoleSession.admin(request).orElse(null));
        model.addAttribute("csrf", ConsoleSession.csrf(request));
        model.addAttribute("csrfField", ConsoleSession.CSRF_FIELD);
    }

    /** Input the console refuses: a 400 page that says why. */
    @ExceptionHandler(ConsoleInputException.class)
    @ResponseStatus(HttpStatus.BAD_REQUEST)
    String refused(ConsoleInputException e, Model model) {
        model.addAttribute("title", "Not done");
        model.addAttribute("message", e.getMessage());
        return "console/error";
    }

    @ExceptionHandler(Exception.class)
    @ResponseStatus(HttpStatus.INTERNAL_SERVER_ERROR)
    String failed(Exception e, Model model) {
        log.error("console page failed", e);
        model.addAttribute("title", "Something went wrong");
        model.addAttribute("message", "The page could not be shown; the error has been logged with this request's id.");
        return "console/error";
    }
}
