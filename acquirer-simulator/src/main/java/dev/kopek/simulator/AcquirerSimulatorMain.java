package dev.kopek.simulator;

public final class AcquirerSimulatorMain {
    private AcquirerSimulatorMain() {
    }

    public static void main(String[] args) {
    }
}
