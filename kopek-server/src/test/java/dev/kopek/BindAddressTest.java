package dev.kopek;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ClassPathResource;

/**
 * Kopek listens on loopback unless {@code KOPEK_BIND_ADDRESS} names another address: the demo is not reachable
 * from the network by accident, a container sets 0.0.0.0 (the image does, ContainerImageTest).
 */
class BindAddressTest {

    private static String serverAddress(Map<String, Object> variables) throws IOException {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        environment.getPropertySources().addFirst(new MapPropertySource("variables", variables));
        new YamlPropertySourceLoader()
                .load("application.yml", new ClassPathResource("application.yml"))
                .forEach(environment.getPropertySources()::addLast);
        return environment.getProperty("server.address");
    }

    @Test
    void loopbackByDefaultAndTheVariablesAddressWhenSet() throws IOException {
        assertThat(serverAddress(Map.of())).isEqualTo("127.0.0.1");
        assertThat(serverAddress(Map.of("KOPEK_BIND_ADDRESS", "0.0.0.0"))).isEqualTo("0.0.0.0");
        assertThat(serverAddress(Map.of("KOPEK_BIND_ADDRESS", "::"))).isEqualTo("::");
    }
}
