package dev.kopek.platform;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.slf4j.MDC;

/**
 * Tomcat refuses some requests before Spring ever sees them: bytes that are not HTTP, bad header bytes,
 * oversized headers, a path that does not decode, an unknown {@code Expect}, an unsupported transfer coding. Its
 * stock valve answers those with an HTML page; this one answers with the same problem+json and stable codes as
 * the rest of the API. It never echoes Tomcat's message, which may quote the refused input. These requests never
 * reached {@link RequestIdFilter}, so the request id is given here: the caller's {@code X-Request-Id} when Tomcat
 * read one and it is well-formed, a new one otherwise, in the header and in the body like every other answer.
 */
public final class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(false);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        String code = Problems.codeFor(status);
        if (status == 505) {
            // A request line naming HTTP/2.0 or HTTP/9.9 is the client's mistake, not a server failure: 400.
            status = 400;
            response.setStatus(status);
        }
        String requestId = requestId(request);
        try {
            response.setHeader(RequestIdFilter.HEADER, requestId);
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("utf-8");
            PrintWriter writer = response.getReporter();
            if (writer != null) {
                MDC.put(LogContext.REQUEST_ID, requestId);
                writer.write(Problems.json(status, code, detail(status)));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // The client is gone or the response cannot be written any more; there is nobody left to tell.
        } finally {
            MDC.remove(LogContext.REQUEST_ID);
        }
    }

    /** The id {@link RequestIdFilter} gave the request if it ran, else the caller's if well-formed, else a new one. */
    private static String requestId(Request request) {
        if (request.getAttribute(LogContext.REQUEST_ID) instanceof String given && LogContext.isValidRequestId(given)) {
            return given;
        }
        String header;
        try {
            header = request.getHeader(RequestIdFilter.HEADER);
        } catch (RuntimeException unreadable) {
            header = null; // headers Tomcat could not parse are not read again here
        }
        return LogContext.isValidRequestId(header) ? header : RequestIdFilter.newId();
    }

    private static String detail(int status) {
        return switch (status) {
            case 400 ->
                "The request is not well-formed HTTP/1.1: check the request line, the header bytes and the"
                        + " percent-encoding of the path.";
            case 413, 431 -> "The request or its headers are too large.";
            case 414 -> "The request target is too long.";
            case 417 -> "The Expect header names an expectation this server does not support.";
            case 501 -> "The method or transfer coding is not supported.";
            default ->
                status >= 500
                        ? "An internal error occurred; it has been logged."
                        : "The request was refused by the web server.";
        };
    }
}
