package dev.kopek.access.web;

import dev.kopek.audit.Actor;
import dev.kopek.money.MerchantId;
import dev.kopek.platform.LogContext;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Handler parameters that only the access decision can fill: a {@link MerchantId} on merchant routes and an
 * {@link Actor} on admin (the admin identity) and merchant routes (the merchant). A handler that asks for one on a
 * route of another audience is a programming error, refused loudly rather than answered with somebody's id.
 */
@Configuration(proxyBeanMethods = false)
class CallerArguments implements WebMvcConfigurer {

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new HandlerMethodArgumentResolver() {
            @Override
            public boolean supportsParameter(MethodParameter parameter) {
                return parameter.getParameterType() == MerchantId.class || parameter.getParameterType() == Actor.class;
            }

            @Override
            public Object resolveArgument(
                    MethodParameter parameter,
                    ModelAndViewContainer mav,
                    NativeWebRequest request,
                    WebDataBinderFactory binderFactory) {
                HttpServletRequest http = request.getNativeRequest(HttpServletRequest.class);
                Object merchant = http.getAttribute(AudienceAuthorization.MERCHANT_ATTRIBUTE);
                if (parameter.getParameterType() == MerchantId.class) {
                    if (merchant instanceof MerchantId id) {
                        return id;
                    }
                    throw new IllegalStateException("route is not behind merchant authentication");
                }
                if (http.getAttribute(AudienceAuthorization.ADMIN_ATTRIBUTE) instanceof Caller.Admin admin) {
                    return new Actor(
                            Actor.Kind.ADMIN, admin.id(), admin.name(), LogContext.requestId(), http.getRemoteAddr());
                }
                if (merchant instanceof MerchantId id) {
                    return Actor.merchant(id, LogContext.requestId(), http.getRemoteAddr());
                }
                throw new IllegalStateException("route is not behind admin or merchant authentication");
            }
        });
    }
}
