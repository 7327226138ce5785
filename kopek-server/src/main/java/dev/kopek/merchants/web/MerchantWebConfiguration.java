package dev.kopek.merchants.web;

import dev.kopek.merchants.Merchants;
import dev.kopek.merchants.MerchantsProperties;
import dev.kopek.money.MerchantId;
import java.util.List;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Every {@code /v1/**} route is authenticated; a handler asks for the caller with a {@link MerchantId} parameter. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(MerchantsProperties.class)
class MerchantWebConfiguration implements WebMvcConfigurer {

    private final Merchants merchants;
    private final MerchantsProperties properties;

    MerchantWebConfiguration(Merchants merchants, MerchantsProperties properties) {
        this.merchants = merchants;
        this.properties = properties;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        // PSP notifications authenticate by their signature, checked by the webhooks module.
        registry.addInterceptor(new MerchantAuthentication(merchants, properties)).addPathPatterns("/v1/**")
                .excludePathPatterns("/v1/psp/**");
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new HandlerMethodArgumentResolver() {
            @Override
            public boolean supportsParameter(MethodParameter parameter) {
                return parameter.getParameterType() == MerchantId.class;
            }

            @Override
            public Object resolveArgument(MethodParameter parameter, ModelAndViewContainer mav,
                    NativeWebRequest request, WebDataBinderFactory binderFactory) {
                Object merchant = request.getAttribute(MerchantAuthentication.MERCHANT_ATTRIBUTE,
                        RequestAttributes.SCOPE_REQUEST);
                if (merchant == null) {
                    throw new IllegalStateException("route is not behind merchant authentication");
                }
                return merchant;
            }
        });
    }
}
