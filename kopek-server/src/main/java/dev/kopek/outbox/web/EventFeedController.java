package dev.kopek.outbox.web;

import dev.kopek.money.MerchantId;
import dev.kopek.outbox.store.EventFeed;
import dev.kopek.outbox.store.OutboxStore.FeedPosition;
import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import dev.kopek.platform.ProblemCode;
import dev.kopek.platform.ProblemCodes;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/events?after=<cursor>&limit=<1..100>}: the caller's events, oldest first. Each page ends with
 * {@code next_cursor}; passing it back continues exactly after the last event seen, even when it is empty (poll
 * with it). The events are the same bytes Kafka and the webhooks carry.
 */
@RestController
@Audience(Audience.Kind.MERCHANT)
class EventFeedController {

    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;

    private final EventFeed feed;

    EventFeedController(EventFeed feed) {
        this.feed = feed;
    }

    @GetMapping("/v1/events")
    @ProblemCodes({ProblemCode.INVALID_CURSOR, ProblemCode.INVALID_LIMIT})
    ResponseEntity<String> events(
            MerchantId merchant,
            @RequestParam(required = false) String after,
            @RequestParam(required = false) String limit) {
        FeedPosition from = after == null
                ? FeedPosition.START
                : FeedCursor.decode(after)
                        .orElseThrow(() -> ApiProblem.badRequest(
                                "invalid_cursor",
                                "after",
                                "after must be a next_cursor value from an earlier page, unchanged."));
        EventFeed.Page page = feed.page(merchant, from, limit(limit));
        String body = "{\"object\":\"list\",\"data\":[" + String.join(",", page.envelopes()) + "],\"has_more\":"
                + page.hasMore() + ",\"next_cursor\":\"" + FeedCursor.encode(page.last()) + "\"}";
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }

    static int limit(String text) {
        if (text == null) {
            return DEFAULT_LIMIT;
        }
        int parsed;
        try {
            parsed = text.length() > 3 ? -1 : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            parsed = -1;
        }
        if (parsed < 1 || parsed > MAX_LIMIT) {
            throw ApiProblem.badRequest(
                    "invalid_limit", "limit", "limit must be an integer from 1 to " + MAX_LIMIT + ".");
        }
        return parsed;
    }
}
