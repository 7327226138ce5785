package dev.kopek.platform;

import org.apache.coyote.http11.Http11NioProtocol;

/**
 * Tomcat's HTTP/1.1 connector with per-connection buffers sized for Kopek's requests and answers (a payment is about
 * 1 KB each way) instead of Tomcat's 8 KB defaults. Each request in flight holds its connection's buffers for as long
 * as it waits — for a PSP that answers in seconds, thousands at once: with the defaults that was about 90 KB per
 * request, and 5,000 payments in flight did not fit in a 512 MB heap (issue 11, latency mode; the histogram is in
 * benchmarks/HISTORY.md). Smaller buffers only mean more, smaller reads and writes for a large body; a response larger
 * than its buffer is sent chunked as soon as the buffer fills. The request header limit is unchanged.
 */
public class SmallBuffersProtocol extends Http11NioProtocol {

    /** The socket's read and write buffers (Tomcat's socket.appReadBufSize/appWriteBufSize, default 8 KB each). */
    static final int SOCKET_BUFFER_BYTES = 2048;
    /** The servlet response's buffer: bytes, and as many chars for a writer (default 8 KB and 8 K chars). */
    static final int RESPONSE_BUFFER_BYTES = 2048;

    public SmallBuffersProtocol() {
        getEndpoint().getSocketProperties().setAppReadBufSize(SOCKET_BUFFER_BYTES);
        getEndpoint().getSocketProperties().setAppWriteBufSize(SOCKET_BUFFER_BYTES);
    }

    @Override
    public int getDesiredBufferSize() {
        return RESPONSE_BUFFER_BYTES;
    }
}
