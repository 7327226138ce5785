package dev.kopek.console.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * The console's guard on its pages, its stylesheet and script served from the jar, and a page (not the API's
 * problem+json) for a console file that does not exist.
 */
@Configuration(proxyBeanMethods = false)
class ConsoleWebConfiguration implements WebMvcConfigurer {

    private static final String NOT_FOUND_PAGE = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<title>Kopek console</title><link rel=\"stylesheet\" href=\"/console/assets/console.css\"></head>"
            + "<body class=\"login\"><main class=\"card\"><h1>Not found</h1><p>There is no such page in the"
            + " console.</p><p><a href=\"/console/payments\">Payments</a></p></main></body></html>";

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new ConsoleGuard()).addPathPatterns("/console", "/console/**")
                .excludePathPatterns("/console/assets/**");
    }

    @Override
    public void addResourceHandlers(ResourceHandlerRegistry registry) {
        registry.addResourceHandler("/console/assets/**").addResourceLocations("classpath:/console-assets/");
    }

    @Override
    public void extendHandlerExceptionResolvers(List<HandlerExceptionResolver> resolvers) {
        resolvers.addFirst(ConsoleWebConfiguration::missingFile);
    }

    /**
     * Other paths keep the API's answer: this resolver declines (null) and the next one writes it. The page is
     * written here, not by a template: Thymeleaf would label it by the path's extension (text/css for a .css).
     */
    private static ModelAndView missingFile(HttpServletRequest request, HttpServletResponse response,
            Object handler, Exception e) {
        if (!(e instanceof NoResourceFoundException) || !request.getRequestURI().startsWith("/console/")) {
            return null;
        }
        response.setStatus(HttpStatus.NOT_FOUND.value());
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setContentType("text/html;charset=UTF-8");
        try {
            response.getWriter().write(NOT_FOUND_PAGE);
        } catch (IOException failed) {
            return null;
        }
        return new ModelAndView();
    }
}
