/**
 * Who may call what. Every route declares one {@link dev.kopek.platform.Audience}; Spring Security's firewall
 * refuses ambiguous paths, a bearer filter identifies the caller (a named admin identity, {@code KOPEK_ADMIN_TOKEN},
 * or a merchant's API key) and an authorization manager decides for the handler Spring resolves for the request,
 * denying any handler without exactly one declared audience. Named admin identities live here, and the operator
 * console's sessions ({@link dev.kopek.access.AdminSessions}): the caller of a console route is its session, whose
 * CSRF token the same decision checks.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Access")
package dev.kopek.access;
