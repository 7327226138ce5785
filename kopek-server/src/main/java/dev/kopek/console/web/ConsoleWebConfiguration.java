package dev.kopek.console.web;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** The console's guard on its pages, and its stylesheet and script served from the jar. */
@Configuration(proxyBeanMethods = false)
class ConsoleWebConfiguration implements WebMvcConfigurer {

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new ConsoleGuard()).addPathPatterns("/console", "/console/**")
                .excludePathPatterns("/console/assets/**");
    }

    @Override
    public void addResourceHandlers(ResourceHandlerRegistry registry) {
        registry.addResourceHandler("/console/assets/**").addResourceLocations("classpath:/console-assets/");
    }
}
