package dev.kopek.apidocs;

import dev.kopek.audit.Actor;
import dev.kopek.money.MerchantId;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** springdoc reads the handler mappings; these beans add what the mappings cannot say. */
@Configuration(proxyBeanMethods = false)
class ApiDocumentConfiguration {

    static {
        // Resolved from the credentials by Kopek's argument resolvers, never sent by a client: not parameters.
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(MerchantId.class, Actor.class);
    }

    @Bean
    OperationCustomizer retryContractOperations() {
        return new ContractOperations();
    }

    @Bean
    OpenApiCustomizer kopekDocument() {
        return new KopekDocument(DocumentOverlay.load());
    }
}
