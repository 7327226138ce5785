package dev.kopek.outbox.webhooks;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;

/**
 * Where a webhook may be sent: only to public unicast addresses. Refused, for IPv4: this network (0/8), private
 * (10/8, 172.16/12, 192.168/16), carrier-grade NAT (100.64/10, which holds Alibaba's metadata 100.100.100.200),
 * loopback (127/8), link-local (169.254/16, which holds the cloud metadata address 169.254.169.254), IETF and
 * documentation and benchmarking ranges, multicast (224/4), reserved (240/4) and broadcast. For IPv6: unspecified,
 * loopback, unique-local (fc00::/7, which holds AWS's metadata fd00:ec2::254), link-local, site-local, multicast,
 * documentation; and every form that embeds an IPv4 address (mapped ::ffff:0:0/96, compatible ::/96, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) is judged by the IPv4 address inside. Loopback passes only where the operator
 * allowed it (the demo, tests with a local receiver).
 */
public final class AddressPolicy {

    private record Range(byte[] prefix, int bits, String why) {}

    private static final List<Range> V4 = List.of(
            v4("0.0.0.0", 8, "unspecified"),
            v4("10.0.0.0", 8, "private"),
            v4("100.64.0.0", 10, "carrier-grade NAT"),
            v4("127.0.0.0", 8, "loopback"),
            v4("169.254.0.0", 16, "link-local or cloud metadata"),
            v4("172.16.0.0", 12, "private"),
            v4("192.0.0.0", 24, "IETF protocol assignments"),
            v4("192.0.2.0", 24, "documentation"),
            v4("192.88.99.0", 24, "6to4 relay anycast"),
            v4("192.168.0.0", 16, "private"),
            v4("198.18.0.0", 15, "benchmarking"),
            v4("198.51.100.0", 24, "documentation"),
            v4("203.0.113.0", 24, "documentation"),
            v4("224.0.0.0", 4, "multicast"),
            v4("240.0.0.0", 4, "reserved or broadcast"));

    private static final List<Range> V6 = List.of(
            v6("::", 128, "unspecified"),
            v6("::1", 128, "loopback"),
            v6("fc00::", 7, "unique local or cloud metadata"),
            v6("fe80::", 10, "link-local"),
            v6("fec0::", 10, "site-local"),
            v6("ff00::", 8, "multicast"),
            v6("2001:db8::", 32, "documentation"),
            v6("100::", 64, "discard-only"));

    private final boolean allowLoopback;

    public AddressPolicy(boolean allowLoopback) {
        this.allowLoopback = allowLoopback;
    }

    /** Why {@code address} may not receive webhooks, or empty when it may. */
    public Optional<String> refusal(InetAddress address) {
        Optional<Inet4Address> embedded = embeddedV4(address);
        if (embedded.isPresent()) {
            return refusal(embedded.get());
        }
        byte[] bytes = address.getAddress();
        for (Range range : address instanceof Inet4Address ? V4 : V6) {
            if (matches(bytes, range)) {
                if (range.why().equals("loopback") && allowLoopback) {
                    return Optional.empty();
                }
                return Optional.of(range.why() + " address " + address.getHostAddress());
            }
        }
        return Optional.empty();
    }

    public boolean isLoopback(InetAddress address) {
        return embeddedV4(address).map(InetAddress::isLoopbackAddress).orElse(address.isLoopbackAddress());
    }

    /** The IPv4 address inside a mapped, compatible, NAT64 or 6to4 IPv6 address. */
    static Optional<Inet4Address> embeddedV4(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return Optional.empty();
        }
        byte[] b = address.getAddress();
        int from;
        if (zeros(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
            from = 12; // ::ffff:a.b.c.d
        } else if (zeros(b, 0, 12) && !zeros(b, 12, 16) && !(zeros(b, 12, 15) && b[15] == 1)) {
            from = 12; // ::a.b.c.d (deprecated compatible form)
        } else if ((b[0] & 0xff) == 0x00
                && (b[1] & 0xff) == 0x64
                && (b[2] & 0xff) == 0xff
                && (b[3] & 0xff) == 0x9b
                && zeros(b, 4, 12)) {
            from = 12; // 64:ff9b::a.b.c.d
        } else if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) {
            from = 2; // 2002:aabb:ccdd::
        } else {
            return Optional.empty();
        }
        try {
            return Optional.of((Inet4Address)
                    InetAddress.getByAddress(new byte[] {b[from], b[from + 1], b[from + 2], b[from + 3]}));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are always an IPv4 address", e);
        }
    }

    private static boolean zeros(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean matches(byte[] address, Range range) {
        int full = range.bits() / 8;
        for (int i = 0; i < full; i++) {
            if (address[i] != range.prefix()[i]) {
                return false;
            }
        }
        int rest = range.bits() % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (address[full] & mask) == (range.prefix()[full] & mask);
    }

    private static Range v4(String prefix, int bits, String why) {
        return new Range(literal(prefix), bits, why);
    }

    private static Range v6(String prefix, int bits, String why) {
        return new Range(literal(prefix), bits, why);
    }

    /** Only ever called with address literals, so no lookup happens. */
    private static byte[] literal(String text) {
        try {
            return InetAddress.getByName(text).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(text, e);
        }
    }
}
