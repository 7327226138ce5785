package dev.kopek.outbox.webhooks;

import dev.kopek.platform.SealedRows;
import dev.kopek.platform.SecretBox;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Webhook endpoints' signing secrets as {@link dev.kopek.platform.SecretResealing} seals them: a secret still in
 * clear (written before V45) is sealed, one sealed by a retired key is sealed again under the current key.
 */
@Component
class EndpointSecrets implements SealedRows {

    private final EndpointStore endpoints;
    private final SecretBox box;

    EndpointSecrets(EndpointStore endpoints, SecretBox box) {
        this.endpoints = endpoints;
        this.box = box;
    }

    @Override
    public String what() {
        return "webhook endpoint secrets";
    }

    @Override
    public int resealBatch(int limit) {
        List<EndpointStore.Unsealed> rows = endpoints.lockUnsealed(box.currentKeyId(), box.keyIds(), limit);
        for (EndpointStore.Unsealed row : rows) {
            String boundTo = row.id().toString();
            String clear = row.clear() != null ? row.clear() : box.open(row.sealed(), boundTo);
            endpoints.storeSealed(row.id(), box.seal(clear, boundTo));
        }
        return rows.size();
    }

    @Override
    public long countUnopenable() {
        return endpoints.countUnopenable(box.keyIds());
    }
}
