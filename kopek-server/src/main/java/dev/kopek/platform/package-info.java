/** Cross-cutting plumbing: the database (embedded or external), problem responses, start-up checks. */
@org.springframework.modulith.ApplicationModule(
        displayName = "Platform",
        type = org.springframework.modulith.ApplicationModule.Type.OPEN)
package dev.kopek.platform;
