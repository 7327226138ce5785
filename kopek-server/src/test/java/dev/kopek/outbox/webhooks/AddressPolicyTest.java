package dev.kopek.outbox.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every refused range, by a literal inside it; literals are parsed without any lookup. */
class AddressPolicyTest {

    private static final AddressPolicy STRICT = new AddressPolicy(false);
    private static final AddressPolicy DEMO = new AddressPolicy(true);

    @Test
    void everyInternalIpv4RangeIsRefused() throws Exception {
        for (String address : List.of(
                "0.0.0.0",
                "0.1.2.3",
                "10.0.0.1",
                "10.255.255.255",
                "100.64.0.1",
                "100.100.100.200",
                "100.127.255.254",
                "127.0.0.1",
                "127.8.9.10",
                "169.254.169.254",
                "169.254.0.1",
                "172.16.0.1",
                "172.31.255.255",
                "192.0.0.170",
                "192.0.2.1",
                "192.88.99.1",
                "192.168.1.1",
                "198.18.0.1",
                "198.19.255.255",
                "198.51.100.7",
                "203.0.113.9",
                "224.0.0.1",
                "239.255.255.250",
                "240.0.0.1",
                "255.255.255.255")) {
            assertThat(STRICT.refusal(InetAddress.getByName(address)))
                    .as(address)
                    .isPresent();
        }
    }

    @Test
    void everyInternalIpv6RangeIsRefusedIncludingIpv4Inside() throws Exception {
        for (String address : List.of(
                "::",
                "::1",
                "fc00::1",
                "fd00:ec2::254",
                "fdff::1",
                "fe80::1",
                "febf::1",
                "fec0::1",
                "ff02::1",
                "ff0e::1",
                "2001:db8::1",
                "100::1",
                "64:ff9b::a9fe:a9fe",
                "64:ff9b::7f00:1",
                "2002:a9fe:a9fe::1",
                "2002:0a00:0001::",
                "::127.0.0.1",
                "::10.0.0.1")) {
            assertThat(STRICT.refusal(InetAddress.getByName(address)))
                    .as(address)
                    .isPresent();
        }
        for (String v4 : List.of("127.0.0.1", "10.1.2.3", "169.254.169.254", "192.168.0.1", "100.64.1.1", "0.0.0.0")) {
            byte[] mapped = HexFormat.of().parseHex("00000000000000000000ffff");
            byte[] bytes = new byte[16];
            System.arraycopy(mapped, 0, bytes, 0, 12);
            System.arraycopy(InetAddress.getByName(v4).getAddress(), 0, bytes, 12, 4);
            // Built as an Inet6Address on purpose: InetAddress.getByName would hand back the IPv4 address.
            InetAddress asV6 = Inet6Address.getByAddress(null, bytes, -1);
            assertThat(asV6).isInstanceOf(Inet6Address.class);
            assertThat(STRICT.refusal(asV6)).as("::ffff:" + v4).isPresent();
            assertThat(STRICT.refusal(InetAddress.getByName("::ffff:" + v4)))
                    .as("::ffff:" + v4 + " parsed")
                    .isPresent();
        }
    }

    @Test
    void publicAddressesPassAndLoopbackOnlyWhereAllowed() throws Exception {
        for (String address : List.of(
                "93.184.216.34",
                "8.8.8.8",
                "100.63.255.255",
                "100.128.0.1",
                "172.32.0.1",
                "2606:2800:220:1:248:1893:25c8:1946",
                "2a00:1450:4001::200e",
                "64:ff9b::5db8:d822")) {
            assertThat(STRICT.refusal(InetAddress.getByName(address)))
                    .as(address)
                    .isEmpty();
        }
        assertThat(DEMO.refusal(InetAddress.getByName("127.0.0.1"))).isEmpty();
        assertThat(DEMO.refusal(InetAddress.getByName("::1"))).isEmpty();
        assertThat(DEMO.refusal(InetAddress.getByName("10.0.0.1")))
                .as("demo opens loopback only")
                .isPresent();
        assertThat(DEMO.refusal(InetAddress.getByName("169.254.169.254"))).isPresent();
        assertThat(STRICT.refusal(InetAddress.getByName("169.254.169.254")).orElseThrow())
                .contains("metadata");
    }
}
