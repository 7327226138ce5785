package dev.kopek.platform;

import org.apache.catalina.Host;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Puts {@link ProblemErrorReportValve} where Tomcat's own error report valve would be. The host adds its valve
 * when it starts, before its contexts start; so the swap happens as Kopek's context starts, and every refusal
 * the host reports from then on is problem+json.
 */
@Configuration(proxyBeanMethods = false)
class ServerErrorConfiguration {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReports() {
        return factory -> factory.addContextCustomizers(context -> context.addLifecycleListener(event -> {
            if (Lifecycle.BEFORE_START_EVENT.equals(event.getType()) && context.getParent() instanceof Host host) {
                useProblemReports(host);
            }
        }));
    }

    private static void useProblemReports(Host host) {
        if (host instanceof StandardHost standard) {
            standard.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
        }
        for (Valve valve : host.getPipeline().getValves()) {
            if (valve instanceof ErrorReportValve && !(valve instanceof ProblemErrorReportValve)) {
                host.getPipeline().removeValve(valve);
            }
        }
        for (Valve valve : host.getPipeline().getValves()) {
            if (valve instanceof ProblemErrorReportValve) {
                return;
            }
        }
        host.getPipeline().addValve(new ProblemErrorReportValve());
    }
}
