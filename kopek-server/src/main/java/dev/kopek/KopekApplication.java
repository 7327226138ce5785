package dev.kopek;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class KopekApplication {
    public static void main(String[] args) {
        SpringApplication.run(KopekApplication.class, args);
    }
}
