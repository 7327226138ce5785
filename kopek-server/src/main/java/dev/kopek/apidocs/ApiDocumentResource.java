package dev.kopek.apidocs;

import dev.kopek.platform.Audience;
import org.springdoc.core.customizers.SpringDocCustomizers;
import org.springdoc.core.properties.SpringDocConfigProperties;
import org.springdoc.core.providers.SpringDocProviders;
import org.springdoc.core.service.AbstractRequestService;
import org.springdoc.core.service.GenericResponseService;
import org.springdoc.core.service.OpenAPIService;
import org.springdoc.core.service.OperationService;
import org.springdoc.webmvc.api.OpenApiWebMvcResource;
import org.springframework.beans.factory.ObjectFactory;
import org.springframework.web.bind.annotation.RestController;

/**
 * springdoc's document endpoints ({@code /openapi}, {@code /openapi.yaml}), declared public the way every route is:
 * with {@link Audience}. Being a bean of springdoc's type, it replaces the one springdoc would register, which
 * declares no audience and would be closed.
 */
@RestController
@Audience(Audience.Kind.PUBLIC)
class ApiDocumentResource extends OpenApiWebMvcResource {

    ApiDocumentResource(
            ObjectFactory<OpenAPIService> openApiBuilder,
            AbstractRequestService requestService,
            GenericResponseService responseService,
            OperationService operationService,
            SpringDocConfigProperties properties,
            SpringDocProviders providers,
            SpringDocCustomizers customizers) {
        super(openApiBuilder, requestService, responseService, operationService, properties, providers, customizers);
    }
}
