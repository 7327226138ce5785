package dev.kopek.console.web;

import dev.kopek.access.AdminSessions;
import dev.kopek.access.AdminTokens;
import dev.kopek.platform.Audience;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * Log in with an admin token (the bootstrap {@code KOPEK_ADMIN_TOKEN} or a named identity's {@code kad_…}); the
 * session, not the token, is what later requests carry. The form is open to anyone; logging out is a console
 * action like the others (session and CSRF token).
 */
@Controller
class ConsoleLoginController {

    private static final Logger log = LoggerFactory.getLogger(ConsoleLoginController.class);
    private static final int MAX_TOKEN = 512;

    private final AdminSessions sessions;
    private final AdminTokens tokens;

    ConsoleLoginController(AdminSessions sessions, AdminTokens tokens) {
        this.sessions = sessions;
        this.tokens = tokens;
    }

    @GetMapping("/console/login")
    @Audience(Audience.Kind.PUBLIC)
    String form(Model model) {
        model.addAttribute("bootstrap", tokens.bootstrapEnabled());
        return "console/login";
    }

    @PostMapping("/console/login")
    @Audience(Audience.Kind.PUBLIC)
    String login(@RequestParam(name = "token", required = false) String token, HttpServletRequest request,
            HttpServletResponse response, Model model) {
        var admin = token == null || token.length() > MAX_TOKEN ? java.util.Optional.<AdminTokens.Admin>empty()
                : sessions.logIn(request, token.strip());
        if (admin.isEmpty()) {
            log.warn("console login refused from {}", request.getRemoteAddr());
            response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            model.addAttribute("bootstrap", tokens.bootstrapEnabled());
            model.addAttribute("error", "That admin token is not valid.");
            return "console/login";
        }
        log.info("console login: {} ({}) from {}", admin.get().name(), admin.get().id(), request.getRemoteAddr());
        return "redirect:/console/payments";
    }

    @PostMapping("/console/logout")
    @Audience(Audience.Kind.CONSOLE)
    String logout(HttpServletRequest request) {
        sessions.logOut(request);
        return "redirect:/console/login";
    }
}
