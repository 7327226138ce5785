package dev.kopek.bench;

public final class PaymentLoadDriver {
    private PaymentLoadDriver() {
    }

    public static void main(String[] args) {
    }
}
