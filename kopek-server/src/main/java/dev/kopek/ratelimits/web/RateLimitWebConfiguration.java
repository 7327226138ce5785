package dev.kopek.ratelimits.web;

import dev.kopek.ratelimits.RateLimiter;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** The limiter runs last among the interceptors: after authentication has named the merchant. */
@Configuration(proxyBeanMethods = false)
class RateLimitWebConfiguration implements WebMvcConfigurer {

    private final RateLimiter limiter;

    RateLimitWebConfiguration(RateLimiter limiter) {
        this.limiter = limiter;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new RateLimitInterceptor(limiter))
                .addPathPatterns("/v1/**")
                .order(Ordered.LOWEST_PRECEDENCE);
    }
}
