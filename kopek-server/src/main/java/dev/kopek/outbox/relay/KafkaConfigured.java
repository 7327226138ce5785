package dev.kopek.outbox.relay;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** True when {@code kopek.kafka.bootstrap-servers} is set to something; an empty value means "no Kafka". */
class KafkaConfigured implements Condition {

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        String servers = context.getEnvironment().getProperty("kopek.kafka.bootstrap-servers");
        return servers != null && !servers.isBlank();
    }
}
