/**
 * Inbound PSP notifications: verified before anything else, stored raw and deduplicated by the provider's event
 * id, then applied through the state machines — late, duplicate and backward notifications change nothing, and
 * ones about objects Kopek does not know yet wait to be matched.
 */
@org.springframework.modulith.ApplicationModule(displayName = "PSP notifications")
package dev.kopek.notifications;
