package dev.kopek.access.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.platform.Audience;
import dev.kopek.support.IntegrationTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/** Deny by default only works if nothing relies on it by accident: every handler names its one audience. */
class AudienceDeclarationTest extends IntegrationTest {

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @Test
    void everyMappedHandlerDeclaresExactlyOneAudience() {
        List<String> offenders = new ArrayList<>();
        mappings.getHandlerMethods().forEach((info, handler) -> {
            List<Audience.Kind> declared = Routes.declaredBy(handler);
            boolean errorPage = declared.isEmpty() && ErrorController.class.isAssignableFrom(handler.getBeanType());
            if (declared.size() != 1 && !errorPage) {
                offenders.add(info + " -> " + handler + " declares " + declared);
            }
        });
        assertThat(mappings.getHandlerMethods()).hasSizeGreaterThan(30);
        assertThat(offenders).as("handlers without exactly one @Audience").isEmpty();
    }

    @Test
    void everyAdminAndOpsPathIsAnAdminRoute() {
        mappings.getHandlerMethods().forEach((info, handler) -> {
            List<Audience.Kind> declared = Routes.declaredBy(handler);
            for (String pattern : info.getPatternValues()) {
                boolean adminPath = pattern.startsWith("/v1/admin/") || pattern.startsWith("/v1/ops/");
                if (adminPath) {
                    assertThat(declared).as(pattern).containsExactly(Audience.Kind.ADMIN);
                }
            }
        });
    }

    @Test
    void everyConsolePathIsAConsoleRouteButTheLoginForm() {
        List<String> seen = new ArrayList<>();
        mappings.getHandlerMethods().forEach((info, handler) -> {
            for (String pattern : info.getPatternValues()) {
                if (pattern.equals("/console") || pattern.startsWith("/console/")) {
                    seen.add(pattern);
                    assertThat(Routes.declaredBy(handler))
                            .as(pattern)
                            .containsExactly(
                                    pattern.equals("/console/login") ? Audience.Kind.PUBLIC : Audience.Kind.CONSOLE);
                }
            }
        });
        assertThat(seen).contains("/console/login", "/console/payments", "/console/audit");
    }
}
