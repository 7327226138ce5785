package dev.kopek.platform;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Tomcat's connector with small per-connection buffers: {@link SmallBuffersProtocol}. */
@Configuration(proxyBeanMethods = false)
class ConnectionBuffersConfiguration {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> smallConnectionBuffers() {
        return factory -> factory.setProtocol(SmallBuffersProtocol.class.getName());
    }
}
