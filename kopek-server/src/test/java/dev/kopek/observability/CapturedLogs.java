package dev.kopek.observability;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.LoggerFactory;

/** Every log event of the JVM while open, with its MDC fixed at the moment it was logged. */
final class CapturedLogs extends AppenderBase<ILoggingEvent> implements AutoCloseable {

    private final List<ILoggingEvent> events = new CopyOnWriteArrayList<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

    static CapturedLogs open() {
        CapturedLogs logs = new CapturedLogs();
        logs.setContext(logs.root.getLoggerContext());
        logs.start();
        logs.root.addAppender(logs);
        return logs;
    }

    @Override
    protected void append(ILoggingEvent event) {
        event.prepareForDeferredProcessing();
        events.add(event);
    }

    List<ILoggingEvent> withRequestId(String requestId) {
        return events.stream()
                .filter(e -> requestId.equals(e.getMDCPropertyMap().get("request_id")))
                .toList();
    }

    @Override
    public void close() {
        root.detachAppender(this);
        stop();
    }
}
