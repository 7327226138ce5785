package dev.kopek.psp.simulator;

import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspProperties;
import dev.kopek.simulator.AcquirerSimulator;
import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The simulator is Kopek's default PSP: a separately started one when {@code KOPEK_PSP_SIMULATOR_URL} is set,
 * otherwise one started in-process (on {@code KOPEK_SIMULATOR_PORT}, or a free port).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PspProperties.class)
class SimulatorConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SimulatorConfiguration.class);

    @Bean(destroyMethod = "close")
    @ConditionalOnExpression("'${kopek.psp.simulator-url:}'.isBlank()")
    AcquirerSimulator inProcessSimulator(PspProperties properties) {
        AcquirerSimulator simulator = AcquirerSimulator.start(properties.simulatorPort());
        log.info("acquirer simulator running in-process at {}", simulator.baseUri());
        return simulator;
    }

    @Bean
    PaymentProvider paymentProvider(PspProperties properties, ObjectProvider<AcquirerSimulator> inProcess,
            java.time.Clock clock) {
        URI base = properties.simulatorUrl() != null && !properties.simulatorUrl().isBlank()
                ? URI.create(properties.simulatorUrl())
                : inProcess.getObject().baseUri();
        return new SimulatorPaymentProvider(base, properties, clock);
    }
}
