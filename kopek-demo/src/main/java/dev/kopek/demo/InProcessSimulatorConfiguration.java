package dev.kopek.demo;

import dev.kopek.psp.InProcessPsp;
import dev.kopek.psp.PspProperties;
import dev.kopek.simulator.AcquirerSimulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;

/**
 * The demo's PSP: the acquirer simulator started in Kopek's process (on {@code KOPEK_SIMULATOR_PORT}, or a free
 * port) when the simulator is the PSP and no {@code KOPEK_PSP_SIMULATOR_URL} names a running one. Only the demo build
 * carries it (an auto-configuration, active wherever this jar is on the classpath); the production artifact holds no
 * simulator class, and production mode refuses to start without a PSP URL either way.
 */
@AutoConfiguration
@ConditionalOnExpression("'${kopek.psp.simulator-url:}'.isBlank() and '${kopek.psp.provider:simulator}' == 'simulator'")
class InProcessSimulatorConfiguration {

    private static final Logger log = LoggerFactory.getLogger(InProcessSimulatorConfiguration.class);

    @Bean(destroyMethod = "close")
    AcquirerSimulator inProcessSimulator(PspProperties properties) {
        AcquirerSimulator simulator = AcquirerSimulator.start(properties.simulatorPort());
        log.info("acquirer simulator running in-process at {}", simulator.baseUri());
        return simulator;
    }

    @Bean
    InProcessPsp inProcessPsp(AcquirerSimulator simulator) {
        return simulator::baseUri;
    }
}
