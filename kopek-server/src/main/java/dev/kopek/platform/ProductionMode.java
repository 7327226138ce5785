package dev.kopek.platform;

import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * {@code KOPEK_PROFILE=production} refuses to start with anything that only the demo may use: the embedded
 * PostgreSQL, the in-process PSP simulator, the demo merchant, the simulator's webhook secret (or none), no
 * {@code KOPEK_SECRETS_KEY}, or a console session cookie that is not {@code Secure}. It checks before any bean is created, so nothing (not the embedded database) starts
 * first, and names every problem on its own line. Without it Kopek is the zero-configuration demo.
 */
@Configuration(proxyBeanMethods = false)
class ProductionMode {

    static final String PRODUCTION = "production";
    static final String SIMULATOR_WEBHOOK_SECRET = "whsec_simulator";
    private static final int MIN_WEBHOOK_SECRET = 16;
    /** Where KOPEK_CONSOLE_SECURE_COOKIE lands (application.yml). */
    static final String CONSOLE_SECURE_COOKIE = "server.servlet.session.cookie.secure";

    @Bean
    static BeanFactoryPostProcessor productionModeCheck(Environment environment) {
        return beanFactory -> {
            List<String> problems = problems(environment);
            if (!problems.isEmpty()) {
                throw new ProductionModeViolation(problems);
            }
        };
    }

    static List<String> problems(Environment env) {
        String profile = env.getProperty("kopek.profile", "").strip();
        if (profile.isEmpty() || profile.equals("demo")) {
            return List.of();
        }
        if (!profile.equals(PRODUCTION)) {
            return List.of("KOPEK_PROFILE is '" + profile + "'; it is 'production' or unset (the demo).");
        }
        List<String> problems = new ArrayList<>();
        if (blank(env.getProperty("kopek.db.url"))) {
            problems.add("KOPEK_DB_URL is not set: the embedded PostgreSQL is for the demo only.");
        }
        boolean stripe = "stripe"
                .equals(env.getProperty("kopek.psp.provider", "simulator").strip());
        if (stripe) {
            problems.addAll(stripeProblems(env));
        } else if (blank(env.getProperty("kopek.psp.simulator-url"))) {
            problems.add("KOPEK_PSP_SIMULATOR_URL is not set: the in-process PSP simulator is for the demo only.");
        }
        if (env.getProperty("kopek.demo-enabled", Boolean.class, true)) {
            problems.add("KOPEK_DEMO_ENABLED is not false: production has no demo merchant.");
        }
        if (!blank(env.getProperty("kopek.demo-api-key"))) {
            problems.add("KOPEK_DEMO_API_KEY is set: production has no demo merchant and no known key.");
        }
        String webhookSecret = env.getProperty("kopek.psp.webhook-secret", "");
        if (!stripe
                && (webhookSecret.isBlank()
                        || webhookSecret.equals(SIMULATOR_WEBHOOK_SECRET)
                        || webhookSecret.length() < MIN_WEBHOOK_SECRET)) {
            problems.add("KOPEK_PSP_WEBHOOK_SECRET is empty, too short or the simulator's default: set the secret"
                    + " your PSP signs notifications with.");
        }
        if (blank(env.getProperty("kopek.secrets-key"))) {
            problems.add("KOPEK_SECRETS_KEY is not set: production never generates a key into the data folder.");
        }
        if (!isTrue(env, CONSOLE_SECURE_COOKIE)) {
            problems.add("KOPEK_CONSOLE_SECURE_COOKIE is not true: the operator console's session cookie would also"
                    + " travel over plain HTTP. Serve Kopek over HTTPS (itself or behind a proxy) and set it to true.");
        }
        return problems;
    }

    /** Stripe instead of the simulator: its secret key and at least one webhook signing secret. */
    private static List<String> stripeProblems(Environment env) {
        List<String> problems = new ArrayList<>();
        if (blank(env.getProperty("kopek.psp.stripe.secret-key"))) {
            problems.add("KOPEK_STRIPE_SECRET_KEY is not set: Kopek cannot call Stripe.");
        }
        if (blank(env.getProperty("kopek.psp.stripe.webhook-secrets"))) {
            problems.add("KOPEK_STRIPE_WEBHOOK_SECRETS is not set: Stripe's events could not be verified.");
        }
        return problems;
    }

    /** A setting spelled as Spring reads booleans (true, on, yes, 1); anything else, unset included, is false. */
    private static boolean isTrue(Environment env, String key) {
        try {
            return env.getProperty(key, Boolean.class, false);
        } catch (RuntimeException notABoolean) {
            return false;
        }
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    /** Start-up refused; {@link ProductionModeFailureAnalyzer} prints its lines instead of a stack trace. */
    static final class ProductionModeViolation extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final transient List<String> problems;

        ProductionModeViolation(List<String> problems) {
            super("KOPEK_PROFILE=production refuses to start:\n  " + String.join("\n  ", problems), null, false, false);
            this.problems = List.copyOf(problems);
        }

        List<String> problems() {
            return problems;
        }
    }
}
