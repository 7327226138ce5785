package dev.kopek.console.web;

import dev.kopek.console.ConsoleAuthenticator;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** Log in with an admin token; the session, not the token, is what later requests carry. */
@Controller
class ConsoleLoginController {

    private static final Logger log = LoggerFactory.getLogger(ConsoleLoginController.class);

    private final ConsoleAuthenticator authenticator;

    ConsoleLoginController(ConsoleAuthenticator authenticator) {
        this.authenticator = authenticator;
    }

    @GetMapping("/console/login")
    String form(Model model) {
        model.addAttribute("enabled", authenticator.enabled());
        return "console/login";
    }

    @PostMapping("/console/login")
    String login(@RequestParam(name = "token", required = false) String token, HttpServletRequest request,
            HttpServletResponse response, Model model) {
        var admin = authenticator.authenticate(token);
        if (admin.isEmpty()) {
            log.warn("console login refused from {}", request.getRemoteAddr());
            response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            model.addAttribute("enabled", authenticator.enabled());
            model.addAttribute("error", "That admin token is not valid.");
            return "console/login";
        }
        ConsoleSession.start(request, admin.get());
        log.info("console login: {} from {}", admin.get(), request.getRemoteAddr());
        return "redirect:/console/payments";
    }

    @PostMapping("/console/logout")
    String logout(HttpServletRequest request) {
        ConsoleSession.end(request);
        return "redirect:/console/login";
    }
}
