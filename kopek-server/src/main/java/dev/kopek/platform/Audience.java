package dev.kopek.platform;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Who may call a route. Every handler declares exactly one audience, on its method or on its controller class (not
 * both). Access is decided for the handler Spring resolved, after the firewall, never from the raw URI; a handler
 * that declares none, or more than one, is closed to everybody ({@code dev.kopek.access}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Audience {

    Kind value();

    enum Kind {
        /** Anyone, with or without credentials: health probes, the OpenAPI document. */
        PUBLIC,
        /** A merchant's secret API key; the handler learns its merchant only from it (a {@code MerchantId} parameter). */
        MERCHANT,
        /** A named admin identity; the handler learns who from it (a {@code dev.kopek.audit.Actor} parameter). */
        ADMIN,
        /** A PSP's notification: no bearer; the handler verifies the PSP's signature before storing anything. */
        PSP_WEBHOOK,
        /**
         * A person in the operator console: a named admin identity that proved itself once at the console's login
         * form and is carried by the console's session cookie (HttpOnly, SameSite=Strict, path {@code /console}),
         * never by a bearer. A request that may change something also carries the session's CSRF token. The
         * handler learns who from it (a {@code dev.kopek.audit.Actor} parameter), as on an admin route.
         */
        CONSOLE
    }
}
