package dev.kopek.chaos;

/** The driver's pacing (client back-off, the killer's rhythm); never used to synchronise an assertion. */
final class Pause {

    private Pause() {}

    static void millis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
