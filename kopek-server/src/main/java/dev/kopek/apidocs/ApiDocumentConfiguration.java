package dev.kopek.apidocs;

import dev.kopek.audit.Actor;
import dev.kopek.money.MerchantId;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** springdoc reads the handler mappings; these beans add what the mappings cannot say. */
@Configuration(proxyBeanMethods = false)
class ApiDocumentConfiguration implements WebMvcConfigurer {

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

    /** Swagger UI's files, from its WebJar in the jar: the browser loads nothing from the internet. */
    @Override
    public void addResourceHandlers(ResourceHandlerRegistry registry) {
        registry.addResourceHandler(ApiBrowser.ASSETS + "**")
                .addResourceLocations("classpath:/META-INF/resources/webjars/swagger-ui/" + ApiBrowser.swaggerUiVersion()
                        + "/");
    }
}
