package dev.kopek.psp;

import java.net.URI;

/**
 * A PSP started inside Kopek's own process: the demo artifact's acquirer simulator ({@code kopek-demo}), so the demo
 * runs with nothing configured. The production artifact holds none; it talks to a simulator over
 * {@code KOPEK_PSP_SIMULATOR_URL} or to a real PSP, and production mode refuses to start without one.
 */
@FunctionalInterface
public interface InProcessPsp {

    URI baseUri();
}
