package dev.kopek.access.web;

import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;

/** Spring Security's view of a {@link Caller}. Kopek decides by audience, not by roles, so it has no authorities. */
final class CallerAuthentication extends AbstractAuthenticationToken {

    private static final long serialVersionUID = 1L;

    private final transient Caller caller;

    CallerAuthentication(Caller caller) {
        super(List.of());
        this.caller = caller;
        setAuthenticated(true);
    }

    Caller caller() {
        return caller;
    }

    @Override
    public Object getCredentials() {
        return "";
    }

    @Override
    public Object getPrincipal() {
        return caller;
    }
}
