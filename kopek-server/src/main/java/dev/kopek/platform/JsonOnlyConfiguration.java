package dev.kopek.platform;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.accept.ContentNegotiationStrategy;
import org.springframework.web.accept.HeaderContentNegotiationStrategy;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.servlet.config.annotation.ContentNegotiationConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The API speaks only JSON, so it answers JSON whatever {@code Accept} says. Negotiating would be worse than
 * useless: Spring picks the converter only after the handler ran, so {@code Accept: application/xml} on an admin
 * action committed the change and then answered 406 — a client told "failed" about a write that happened.
 * Ignoring {@code Accept} removes that whole class: no answer is chosen after the work is done. The actuator
 * keeps header negotiation (Prometheus asks for its exposition format by {@code Accept}); it only reads.
 */
@Configuration(proxyBeanMethods = false)
class JsonOnlyConfiguration implements WebMvcConfigurer {

    @Override
    public void configureContentNegotiation(ContentNegotiationConfigurer configurer) {
        configurer.strategies(List.of(new JsonWhateverAccept()));
    }

    private static final class JsonWhateverAccept implements ContentNegotiationStrategy {

        private final HeaderContentNegotiationStrategy header = new HeaderContentNegotiationStrategy();

        @Override
        public List<MediaType> resolveMediaTypes(NativeWebRequest request) throws HttpMediaTypeNotAcceptableException {
            HttpServletRequest http = request.getNativeRequest(HttpServletRequest.class);
            if (http != null && http.getRequestURI().startsWith("/actuator/")) {
                return header.resolveMediaTypes(request);
            }
            return MEDIA_TYPE_ALL_LIST;
        }
    }
}
