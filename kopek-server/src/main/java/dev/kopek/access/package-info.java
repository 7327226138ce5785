/**
 * Who may call what. Every route declares one {@link dev.kopek.platform.Audience}; Spring Security's firewall
 * refuses ambiguous paths, a bearer filter identifies the caller (a named admin identity, {@code KOPEK_ADMIN_TOKEN},
 * or a merchant's API key) and an authorization manager decides for the handler Spring resolves for the request,
 * denying any handler without exactly one declared audience. Named admin identities live here.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Access")
package dev.kopek.access;
