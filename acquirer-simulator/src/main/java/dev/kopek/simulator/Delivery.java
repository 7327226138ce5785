package dev.kopek.simulator;

/** How the response of a charge that was made and stored reaches (or fails to reach) the client. */
enum Delivery {
    /** The stored result, promptly. */
    NORMAL,
    /** The stored result after timeoutHangMillis: the client has usually given up by then. */
    HANG,
    /** No response: the connection is closed. */
    DROP,
    /** A 500 instead of the stored result, although the charge happened. */
    ERROR_500
}
