-- What the customer must do before the PSP decides (issue 15, 3-D Secure): {"type": …, "redirect_url": …}, set while
-- the payment is UNKNOWN because the PSP waits for the customer. The API then shows the payment as requires_action
-- with this next_action; the attempt stays live (L2: the intent is not freed) until the PSP's event or a lookup
-- settles it. Ignored once the payment leaves UNKNOWN.
ALTER TABLE payments ADD COLUMN next_action JSONB;
