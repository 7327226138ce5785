package dev.kopek.access.web;

import dev.kopek.access.AdminSessions;
import jakarta.servlet.DispatcherType;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.web.servlet.HandlerMapping;

/**
 * One filter chain for every request. The API takes stateless bearer tokens only: no sessions, no cookies, no CSRF
 * tokens (no browser carries credentials there implicitly), no login pages. The one exception is the operator
 * console's routes ({@code Audience.Kind.CONSOLE}), whose caller is its own session ({@link AdminSessions}) and whose
 * CSRF check is part of the audience decision; Spring Security keeps no session of its own for anyone. Its three
 * parts: the strict firewall, the bearer filter that says who the caller is, and the audience decision for the
 * resolved handler.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    private final ProblemResponses problems = new ProblemResponses();

    @Bean
    SecurityFilterChain kopekFilterChain(
            HttpSecurity http,
            Callers callers,
            AdminSessions sessions,
            ApplicationContext context,
            @Value("${management.endpoints.web.base-path:/actuator}") String actuatorBasePath) {
        var decision = new AudienceAuthorization(new Routes(context, actuatorBasePath), sessions);
        return http.csrf(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .httpBasic(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable)
                .requestCache(AbstractHttpConfigurer::disable)
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .addFilterBefore(new BearerAuthentication(callers), AuthorizationFilter.class)
                .authorizeHttpRequests(a -> a
                        // The request that led to an error page or an async completion was decided already.
                        .dispatcherTypeMatchers(DispatcherType.ERROR, DispatcherType.ASYNC)
                        .permitAll()
                        .anyRequest()
                        .access(decision))
                .exceptionHandling(e -> e.authenticationEntryPoint(problems).accessDeniedHandler(problems))
                .build();
    }

    /**
     * Spring Security observes nothing of its own: without this it wraps every filter of the chain in an observation
     * decorator (a no-op one, as {@code management.observations.enable.spring.security} is false, but built and
     * unwound for each filter of each request: about 3 % of Kopek's CPU on the payment path, benchmarks/HISTORY.md). The
     * request's own observation (http.server.requests, the trace id in every log line) is not Spring Security's.
     */
    @Bean
    SecurityObservationSettings securityObservationSettings() {
        return SecurityObservationSettings.noObservations();
    }

    /**
     * The strict firewall, named so that nobody loosens it by accident. Its path and method rules are kept whole;
     * header values are left to the request guard (control characters, platform) and to each header's own grammar
     * (an Idempotency-Key in Cyrillic is 400 invalid_idempotency_key, not a firewall refusal).
     */
    @Bean
    HttpFirewall httpFirewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setAllowedHeaderValues(value -> true);
        return firewall;
    }

    /** The dispatcher's first mapping: the handler the audience decision resolved (one lookup per request). */
    @Bean
    HandlerMapping decidedHandler() {
        return new DecidedHandler();
    }

    @Bean
    RequestRejectedHandler requestRejectedHandler() {
        return problems;
    }

    /**
     * Tomcat would refuse an encoded slash or backslash itself, with its own error page, before any filter ran;
     * passed through undecoded, the firewall refuses it like every other ambiguous path, as problem+json. The
     * firewall also refuses every method outside the usual seven, so TRACE can never echo a request's headers.
     */
    @Bean
    TomcatConnectorCustomizer encodedSlashesReachTheFirewall() {
        return connector -> {
            connector.setEncodedSolidusHandling("passthrough");
            connector.setEncodedReverseSolidusHandling("passthrough");
            // Likewise TRACE: Tomcat would answer it 405 with its own page; the firewall refuses it (it never echoes).
            connector.setAllowTrace(true);
        };
    }
}
