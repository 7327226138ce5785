package dev.kopek;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration;
import org.springframework.scheduling.annotation.EnableScheduling;

// No user store: callers are merchants' API keys and admin identities (dev.kopek.access), never a generated password.
@SpringBootApplication(exclude = UserDetailsServiceAutoConfiguration.class)
@EnableScheduling
@ConfigurationPropertiesScan
public class KopekApplication {
    public static void main(String[] args) {
        // The JDK HttpClient's buffer per connection to a PSP (16 KB by default) is held while the PSP takes its time;
        // a PSP answer is a few KB. Read once, when the first client is built, so it is set before Spring starts.
        System.getProperties().putIfAbsent("jdk.httpclient.bufsize", "4096");
        SpringApplication.run(KopekApplication.class, args);
    }
}
