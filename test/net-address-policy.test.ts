import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { classifyAddress, isAllowedAddress, type AddressClass } from "../src/net/address-policy.js";
import { GroundkitError } from "../src/core/errors.js";
import { METADATA_IPV4, METADATA_IPV6 } from "../src/net/metadata-addresses.js";

const TABLE: Record<AddressClass, string[]> = {
  public: [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "9.255.255.255", // just below 10/8
    "11.0.0.0", // just above 10/8
    "100.63.255.255", // just below 100.64/10
    "100.128.0.0", // just above 100.64/10
    "126.255.255.255",
    "128.0.0.0",
    "169.253.255.255",
    "169.255.0.0",
    "172.15.255.255", // just below 172.16/12
    "172.32.0.0", // just above 172.16/12
    "191.255.255.255",
    "192.0.1.0",
    "192.0.3.0",
    "192.88.98.255",
    "192.88.100.0",
    "192.167.255.255",
    "192.169.0.0",
    "198.17.255.255",
    "198.20.0.0", // just above 198.18/15
    "198.51.99.255",
    "203.0.112.255",
    "203.0.114.0",
    "223.255.255.255", // just below 224/4
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "2a00:1450:4001:82b::200e",
    "2001:db9::1", // just above 2001:db8::/32
    "2001:db7:ffff::1", // just below
    "2001:1::1", // outside Teredo's 2001:0::/32
    "2003::1",
    "3ffe:ffff::1",
    "::ffff:8.8.8.8",
    "::8.8.8.8",
    "2002:808:808::1", // 6to4 of 8.8.8.8
    "2001::f7f7:f7f7", // Teredo, client 8.8.8.8
    "64:ff9b::93.184.216.34",
    "64:ff9b:1::808:808",
  ],
  loopback: [
    "127.0.0.1",
    "127.0.0.0",
    "127.255.255.255",
    "127.1.2.3",
    "::1",
    "0:0:0:0:0:0:0:1",
    "0000:0000:0000:0000:0000:0000:0000:0001",
    // embedded IPv4 loopback in every form
    "::ffff:127.0.0.1", // IPv4-mapped, dotted
    "::ffff:7f00:1", // IPv4-mapped, hex
    "0:0:0:0:0:FFFF:7F00:0001", // IPv4-mapped, full and upper-case
    "::ffff:0:127.0.0.1", // IPv4-translated (SIIT)
    "::127.0.0.1", // IPv4-compatible, dotted
    "::7f00:1", // IPv4-compatible, hex
    "::127.0.0.2",
    "2002:7f00:1::", // 6to4
    "2002:7f00:0001:abcd::1", // 6to4 with subnet/interface bits
    "2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo, client 127.0.0.1 (inverted)
    "2001::80ff:fffe", // Teredo, compressed
    "64:ff9b::7f00:1", // NAT64 well-known prefix
    "64:ff9b::127.0.0.1", // NAT64, dotted tail
    "64:ff9b:1::7f00:1", // NAT64 local-use prefix, /96 layout
  ],
  private: [
    "10.0.0.0",
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.0",
    "172.20.1.1",
    "172.31.255.255",
    "192.168.0.0",
    "192.168.1.1",
    "192.168.255.255",
    "fc00::",
    "fc00::1",
    "fd12:3456:789a::1",
    "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    "::ffff:10.0.0.1",
    "::ffff:c0a8:101", // 192.168.1.1 mapped, hex
    "::ffff:172.16.5.4",
    "::10.0.0.1",
    "::ffff:0:192.168.0.1",
    "2002:a00:1::", // 6to4 of 10.0.0.1
    "2002:c0a8:0101::1", // 6to4 of 192.168.1.1
    "2001:0:4136:e378:8000:63bf:f5ff:fffe", // Teredo, client 10.0.0.1
    "64:ff9b::10.1.2.3",
    "64:ff9b::c0a8:1",
    "64:ff9b:1::a00:1",
  ],
  "link-local": [
    "169.254.0.0",
    "169.254.0.1",
    "169.254.169.253",
    "169.254.169.255",
    "169.254.255.255",
    "fe80::",
    "fe80::1",
    "FE80::1%eth0",
    "fe80::1%25",
    "febf:ffff::1",
    "::ffff:169.254.1.1",
    "::169.254.1.1",
    "2002:a9fe:0101::",
    "64:ff9b::169.254.1.1",
    "2001::5601:fefe", // Teredo, client 169.254.1.1
  ],
  cgnat: [
    "100.64.0.0",
    "100.64.0.1",
    "100.100.0.1",
    "100.127.255.255",
    "::ffff:100.64.0.1",
    "::100.64.0.1",
    "2002:6440:1::",
    "64:ff9b::100.64.0.1",
    "2001::9bbf:fffe", // Teredo, client 100.64.0.1
  ],
  multicast: [
    "224.0.0.0",
    "224.0.0.1",
    "239.255.255.250",
    "239.255.255.255",
    "ff00::",
    "ff02::1",
    "ff05::fb",
    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    "::ffff:224.0.0.251",
    "::224.0.0.1",
    "2002:e000:1::",
    "64:ff9b::239.1.1.1",
  ],
  reserved: [
    "0.0.0.1",
    "0.255.255.255",
    "192.0.0.1",
    "192.0.0.255",
    "192.0.2.0",
    "192.0.2.1",
    "192.0.2.255",
    "192.88.99.1",
    "198.18.0.0",
    "198.19.255.255",
    "198.51.100.7",
    "203.0.113.9",
    "240.0.0.0",
    "250.1.2.3",
    "255.255.255.254",
    "255.255.255.255",
    "2001:db8::",
    "2001:db8::1",
    "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
    "100::",
    "100::1",
    "100::ffff:ffff:ffff:ffff",
    "3fff::1",
    "2001:2::1",
    "2001:10::1",
    "2001:20::1",
    "5f00::1",
    "fec0::1",
    "::2:0:0:1", // in ::/8, not an embedded form
    "101::1", // outside 2000::/3
    "4000::1",
    "64:ff9b:0:1::1", // inside 64:ff9b::/32 but not the /96
    "64:ff9b:1:ab::1", // local-use NAT64 with an unknowable layout
    "::ffff:192.0.2.1",
    "::ffff:255.255.255.255",
    "2002:c000:0201::", // 6to4 of 192.0.2.1
    "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo, client 192.0.2.45
    "64:ff9b::203.0.113.1",
  ],
  unspecified: ["0.0.0.0", "::", "0:0:0:0:0:0:0:0", "::ffff:0.0.0.0", "::ffff:0:0", "2002::", "64:ff9b::", "2001::ffff:ffff"],
  metadata: [
    "169.254.169.254",
    "100.100.100.200",
    "fd00:ec2::254",
    "fd00:ec2:0:0:0:0:0:254",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "::169.254.169.254",
    "::a9fe:a9fe",
    "::ffff:0:169.254.169.254",
    "2002:a9fe:a9fe::",
    "2002:a9fe:a9fe:1234::5",
    "2001:0:4136:e378:8000:63bf:5601:5601", // Teredo, client 169.254.169.254
    "2001::5601:5601",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b::169.254.169.254",
    "64:ff9b:1::a9fe:a9fe",
    "::ffff:100.100.100.200",
    // Issue 12 item 7: GCP's IPv6 metadata server sits inside fc00::/7, Azure's WireServer in public space.
    "fd20:ce::254",
    "FD20:CE:0:0:0:0:0:254",
    "168.63.129.16",
    "::ffff:168.63.129.16",
    "::ffff:a83f:8110",
    "64:ff9b::168.63.129.16",
    "2002:a83f:8110::1", // 6to4 of 168.63.129.16
    "2001::57c0:7eef", // Teredo, client 168.63.129.16
    "169.254.170.2", // AWS ECS credentials
    "169.254.170.23", // AWS EKS Pod Identity
    "fd00:ec2::23", // AWS EKS Pod Identity over IPv6
    "192.0.0.192", // Oracle Cloud Classic
    "169.254.0.23", // Tencent Cloud
    "169.254.42.42", // Scaleway
    "fd00:42::42", // Scaleway over IPv6
    "fd00:a9fe:a9fe::1", // Akamai (Linode) over IPv6
    "fe80::a9fe:a9fe", // OpenStack over IPv6
    "fe80::a9fe:a9fe%eth0",
  ],
};

describe("classifyAddress", () => {
  for (const [cls, addresses] of Object.entries(TABLE) as Array<[AddressClass, string[]]>) {
    it(`classifies ${addresses.length} addresses as ${cls}`, () => {
      const wrong = addresses
        .map((ip) => ({ ip, got: classifyAddress(ip) }))
        .filter((r) => r.got !== cls);
      expect(wrong).toEqual([]);
    });
  }

  it("rejects strings that are not IP addresses", () => {
    for (const bad of ["", "localhost", "[::1]", "127.1", "0x7f000001", "1.2.3.256", "1::2::3", "01.2.3.4", "::g"]) {
      expect(() => classifyAddress(bad), bad).toThrow(GroundkitError);
    }
  });

  const octets = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
  const hex = (a: number, b: number): string => ((a << 8) | b).toString(16);

  it("classifies every embedded-IPv4 form by the IPv4 address it embeds", () => {
    fc.assert(
      fc.property(octets, ([a, b, c, d]) => {
        const dotted = `${a}.${b}.${c}.${d}`;
        const expected = classifyAddress(dotted);
        const inv = (x: number): number => 255 - x;
        const forms = [
          `::ffff:${dotted}`,
          `::ffff:${hex(a, b)}:${hex(c, d)}`,
          `::ffff:0:${dotted}`,
          `64:ff9b::${dotted}`,
          `64:ff9b::${hex(a, b)}:${hex(c, d)}`,
          `64:ff9b:1::${dotted}`,
          `2002:${hex(a, b)}:${hex(c, d)}::1`,
          `2001:0:4136:e378:8000:63bf:${hex(inv(a), inv(b))}:${hex(inv(c), inv(d))}`,
        ];
        // IPv4-compatible ::a.b.c.d collides with :: and ::1 for 0.0.0.0 and 0.0.0.1.
        if (!(a === 0 && b === 0 && c === 0 && d <= 1)) forms.push(`::${dotted}`);
        for (const form of forms) expect(classifyAddress(form), form).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("gives the same class to full, compressed and dotted spellings of one IPv6 address", () => {
    const group = fc.oneof(fc.constant(0), fc.nat(0xffff));
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), (groups) => {
        const full = groups.map((g) => g.toString(16).padStart(4, "0")).join(":");
        const compressed = new URL(`http://[${full}]/`).hostname.slice(1, -1);
        const g6 = groups[6] ?? 0;
        const g7 = groups[7] ?? 0;
        const dottedTail = `${groups.slice(0, 6).map((g) => g.toString(16)).join(":")}:${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`;
        const expected = classifyAddress(full);
        expect(classifyAddress(compressed), compressed).toBe(expected);
        expect(classifyAddress(full.toUpperCase())).toBe(expected);
        expect(classifyAddress(dottedTail), dottedTail).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe("metadata addresses", () => {
  it("classifies every entry of the one list as metadata, in every embedded form", () => {
    for (const ip of METADATA_IPV4) {
      for (const form of [ip, `::ffff:${ip}`, `64:ff9b::${ip}`, `::ffff:0:${ip}`]) expect(classifyAddress(form), form).toBe("metadata");
    }
    for (const ip of METADATA_IPV6) expect(classifyAddress(ip), ip).toBe("metadata");
  });

  it("leaves the neighbours of the new entries in their ranges", () => {
    expect(classifyAddress("fd20:ce::253")).toBe("private");
    expect(classifyAddress("fd20:ce::255")).toBe("private");
    expect(classifyAddress("168.63.129.15")).toBe("public");
    expect(classifyAddress("168.63.129.17")).toBe("public");
  });
});

describe("isAllowedAddress", () => {
  const allowedWithPrivate: Record<AddressClass, boolean> = {
    public: true,
    loopback: true,
    private: true,
    cgnat: true,
    "link-local": false,
    multicast: false,
    reserved: false,
    unspecified: false,
    metadata: false,
  };

  for (const [cls, addresses] of Object.entries(TABLE) as Array<[AddressClass, string[]]>) {
    it(`${cls}: ${cls === "public" ? "always allowed" : allowedWithPrivate[cls] ? "allowed only with allowPrivateNetwork" : "never allowed"}`, () => {
      for (const ip of addresses) {
        expect(isAllowedAddress(ip, { allowPrivateNetwork: false }), `${ip} without private`).toBe(cls === "public");
        expect(isAllowedAddress(ip, { allowPrivateNetwork: true }), `${ip} with private`).toBe(allowedWithPrivate[cls]);
      }
    });
  }

  it("refuses link-local and metadata addresses even with allowPrivateNetwork", () => {
    for (const ip of ["169.254.169.254", "fd00:ec2::254", "fd20:ce::254", "168.63.129.16", "::ffff:168.63.129.16", "::ffff:169.254.169.254", "2002:a9fe:a9fe::", "fe80::1", "169.254.1.1"]) {
      expect(isAllowedAddress(ip, { allowPrivateNetwork: true }), ip).toBe(false);
    }
  });

  it("never allows a string that is not an IP address", () => {
    expect(isAllowedAddress("localhost", { allowPrivateNetwork: true })).toBe(false);
    expect(isAllowedAddress("[::1]", { allowPrivateNetwork: true })).toBe(false);
  });
});
