package dev.kopek.psp;

/**
 * What the customer must do before the PSP can decide (3-D Secure): the PSP's action type and, for a redirect, where
 * to send the customer. Passed on to the merchant; the payment stays live until the PSP settles it.
 *
 * @param type the PSP's name for it ({@code redirect_to_url}, {@code use_stripe_sdk}, …)
 * @param redirectUrl the page to send the customer to, when the action is a redirect; else null
 */
public record NextAction(String type, String redirectUrl) {
    public NextAction {
        java.util.Objects.requireNonNull(type, "type");
    }
}
