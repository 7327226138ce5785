package dev.kopek.console.web;

import dev.kopek.platform.Problems;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * The console's guard on its pages, its stylesheet and script served from the jar, and pages (not the API's
 * problem+json) for what is refused before a console handler runs.
 */
@Configuration(proxyBeanMethods = false)
class ConsoleWebConfiguration implements WebMvcConfigurer {

    private static final String PAGE = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<title>Kopek console</title><link rel=\"stylesheet\" href=\"/console/assets/console.css\"></head>"
            + "<body class=\"login\"><main class=\"card\"><h1>%s</h1><p>%s</p>%s"
            + "<p><a href=\"/console/payments\">Payments</a></p></main></body></html>";

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new ConsoleGuard())
                .addPathPatterns("/console", "/console/**")
                .excludePathPatterns("/console/assets/**");
    }

    @Override
    public void addResourceHandlers(ResourceHandlerRegistry registry) {
        registry.addResourceHandler("/console/assets/**").addResourceLocations("classpath:/console-assets/");
    }

    @Override
    public void extendHandlerExceptionResolvers(List<HandlerExceptionResolver> resolvers) {
        resolvers.addFirst(ConsoleWebConfiguration::refusedWithoutAHandler);
    }

    /**
     * What Spring MVC refuses before any console handler is chosen (a file that does not exist, a method a page
     * does not take) is a page too. Other paths keep the API's answer: this resolver declines (null) and the next
     * one writes it. The page is written here, not by a template: Thymeleaf would label it by the path's extension
     * (text/css for a missing .css).
     */
    private static ModelAndView refusedWithoutAHandler(
            HttpServletRequest request, HttpServletResponse response, Object handler, Exception e) {
        if (!request.getRequestURI().startsWith("/console/")) {
            return null;
        }
        if (e instanceof NoResourceFoundException) {
            return page(response, HttpStatus.NOT_FOUND, "Not found", "There is no such page in the console.");
        }
        if (e instanceof HttpRequestMethodNotSupportedException method) {
            if (method.getSupportedMethods() != null) {
                response.setHeader("Allow", String.join(", ", method.getSupportedMethods()));
            }
            return page(
                    response,
                    HttpStatus.METHOD_NOT_ALLOWED,
                    "Not done",
                    "This page does not take that method; nothing was changed.");
        }
        return null;
    }

    private static ModelAndView page(HttpServletResponse response, HttpStatus status, String title, String text) {
        response.setStatus(status.value());
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setContentType("text/html;charset=UTF-8");
        try {
            response.getWriter().write(PAGE.formatted(title, text, Problems.requestIdParagraph()));
        } catch (IOException failed) {
            return null;
        }
        return new ModelAndView();
    }
}
