/**
 * Address policy: which IP addresses a fetch may connect to.
 *
 * Every address is put in one class. IPv4 addresses embedded in IPv6
 * (mapped, compatible, SIIT, 6to4, Teredo, NAT64) are classified by the
 * embedded IPv4 address, because that is where the packets end up.
 */
import { isIP } from "node:net";
import { GroundkitError } from "../core/errors.js";
import { METADATA_IPV4, METADATA_IPV6 } from "./metadata-addresses.js";

/** The class of an IP address, as far as outbound fetches are concerned. */
export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "cgnat"
  | "multicast"
  | "reserved"
  | "unspecified"
  | "metadata";

/** Options for {@link isAllowedAddress}. */
export interface AddressPolicyOptions {
  /** Allow loopback, private (RFC 1918, IPv6 unique-local) and CGNAT addresses. */
  allowPrivateNetwork: boolean;
}

interface V4Rule {
  readonly base: number;
  readonly prefix: number;
  readonly cls: AddressClass;
}

function v4(dotted: string): number {
  const parsed = parseIPv4(dotted);
  if (parsed === undefined) throw new Error(`bad IPv4 literal in table: ${dotted}`);
  return parsed;
}

// First match wins, so the single-address rules (metadata endpoints, listed with
// their sources in metadata-addresses.ts) precede the ranges that contain them.
const V4_RULES: readonly V4Rule[] = [
  ...METADATA_IPV4.map((ip): V4Rule => ({ base: v4(ip), prefix: 32, cls: "metadata" })),
  { base: v4("0.0.0.0"), prefix: 32, cls: "unspecified" },
  { base: v4("0.0.0.0"), prefix: 8, cls: "reserved" }, // "this network"
  { base: v4("10.0.0.0"), prefix: 8, cls: "private" },
  { base: v4("100.64.0.0"), prefix: 10, cls: "cgnat" },
  { base: v4("127.0.0.0"), prefix: 8, cls: "loopback" },
  { base: v4("169.254.0.0"), prefix: 16, cls: "link-local" },
  { base: v4("172.16.0.0"), prefix: 12, cls: "private" },
  { base: v4("192.0.0.0"), prefix: 24, cls: "reserved" }, // IETF protocol assignments
  { base: v4("192.0.2.0"), prefix: 24, cls: "reserved" }, // TEST-NET-1
  { base: v4("192.88.99.0"), prefix: 24, cls: "reserved" }, // 6to4 relay anycast (deprecated)
  { base: v4("192.168.0.0"), prefix: 16, cls: "private" },
  { base: v4("198.18.0.0"), prefix: 15, cls: "reserved" }, // benchmarking
  { base: v4("198.51.100.0"), prefix: 24, cls: "reserved" }, // TEST-NET-2
  { base: v4("203.0.113.0"), prefix: 24, cls: "reserved" }, // TEST-NET-3
  { base: v4("224.0.0.0"), prefix: 4, cls: "multicast" },
  { base: v4("240.0.0.0"), prefix: 4, cls: "reserved" }, // future use, includes 255.255.255.255 broadcast
];

function inV4(addr: number, base: number, prefix: number): boolean {
  if (prefix === 0) return true;
  const mask = prefix === 32 ? 0xffffffff : (~(0xffffffff >>> prefix)) >>> 0;
  return ((addr & mask) >>> 0) === ((base & mask) >>> 0);
}

function classifyV4(addr: number): AddressClass {
  for (const rule of V4_RULES) {
    if (inV4(addr, rule.base, rule.prefix)) return rule.cls;
  }
  return "public";
}

/** Parse strict dotted-quad IPv4 into an unsigned 32-bit number. */
function parseIPv4(s: string): number | undefined {
  const parts = s.split(".");
  if (parts.length !== 4) return undefined;
  let out = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    out = out * 256 + n;
  }
  return out;
}

/**
 * Parse an IPv6 address (zone already removed) into 16 bytes. Handles `::`
 * compression and a dotted-quad tail.
 */
function parseIPv6(s: string): Uint8Array | undefined {
  let text = s;
  const tailBytes: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (lastColon >= 0 && text.slice(lastColon + 1).includes(".")) {
    const quad = parseIPv4(text.slice(lastColon + 1));
    if (quad === undefined) return undefined;
    tailBytes.push((quad >>> 24) & 0xff, (quad >>> 16) & 0xff, (quad >>> 8) & 0xff, quad & 0xff);
    // Keep the colon so "::1.2.3.4" becomes "::" and "a::b:1.2.3.4" becomes "a::b:".
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith("::")) text = text.slice(0, -1);
  }
  const groupsWanted = 8 - tailBytes.length / 2;
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const parseGroups = (part: string): number[] | undefined => {
    if (part === "") return [];
    const out: number[] = [];
    for (const g of part.split(":")) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = parseGroups(halves[0] ?? "");
  const tail = halves.length === 2 ? parseGroups(halves[1] ?? "") : [];
  if (head === undefined || tail === undefined) return undefined;
  let groups: number[];
  if (halves.length === 2) {
    const missing = groupsWanted - head.length - tail.length;
    if (missing < 1) return undefined;
    groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  } else {
    if (head.length !== groupsWanted) return undefined;
    groups = head;
  }
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >>> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  tailBytes.forEach((b, i) => {
    bytes[12 + i] = b;
  });
  return bytes;
}

function byteAt(bytes: Uint8Array, i: number): number {
  return bytes[i] ?? 0;
}

function v4From(bytes: Uint8Array, i0: number, i1: number, i2: number, i3: number): number {
  return ((byteAt(bytes, i0) << 24) | (byteAt(bytes, i1) << 16) | (byteAt(bytes, i2) << 8) | byteAt(bytes, i3)) >>> 0;
}

function allZero(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (byteAt(bytes, i) !== 0) return false;
  return true;
}

/** True if the first `prefixBits` bits of `bytes` equal those of `base`. */
function inV6(bytes: Uint8Array, base: Uint8Array, prefixBits: number): boolean {
  let bits = prefixBits;
  for (let i = 0; i < 16 && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((byteAt(bytes, i) & mask) !== (byteAt(base, i) & mask)) return false;
  }
  return true;
}

function v6(text: string): Uint8Array {
  const parsed = parseIPv6(text);
  if (parsed === undefined) throw new Error(`bad IPv6 literal in table: ${text}`);
  return parsed;
}

const V6_NAT64_WKP = v6("64:ff9b::");
const V6_NAT64_LOCAL = v6("64:ff9b:1::");
const V6_6TO4 = v6("2002::");
const V6_TEREDO = v6("2001::");

interface V6Rule {
  readonly base: Uint8Array;
  readonly prefix: number;
  readonly cls: AddressClass;
}

// Checked after the embedded-IPv4 forms; first match wins, so the metadata
// endpoints (several inside fc00::/7 or fe80::/10) come first.
const V6_RULES: readonly V6Rule[] = [
  ...METADATA_IPV6.map((ip): V6Rule => ({ base: v6(ip), prefix: 128, cls: "metadata" })),
  { base: v6("fe80::"), prefix: 10, cls: "link-local" },
  { base: v6("fec0::"), prefix: 10, cls: "reserved" }, // deprecated site-local
  { base: v6("fc00::"), prefix: 7, cls: "private" }, // unique-local
  { base: v6("ff00::"), prefix: 8, cls: "multicast" },
  { base: v6("100::"), prefix: 64, cls: "reserved" }, // discard-only
  { base: v6("2001:db8::"), prefix: 32, cls: "reserved" }, // documentation
  { base: v6("3fff::"), prefix: 20, cls: "reserved" }, // documentation (RFC 9637)
  { base: v6("2001:2::"), prefix: 48, cls: "reserved" }, // benchmarking
  { base: v6("2001:10::"), prefix: 28, cls: "reserved" }, // ORCHID (deprecated)
  { base: v6("2001:20::"), prefix: 28, cls: "reserved" }, // ORCHIDv2
  { base: v6("5f00::"), prefix: 16, cls: "reserved" }, // SRv6 SIDs
];

const V6_GLOBAL_UNICAST = v6("2000::");

function classifyV6(bytes: Uint8Array): AddressClass {
  if (allZero(bytes, 0, 16)) return "unspecified";
  if (allZero(bytes, 0, 15) && byteAt(bytes, 15) === 1) return "loopback";

  // ::ffff:a.b.c.d (IPv4-mapped)
  if (allZero(bytes, 0, 10) && byteAt(bytes, 10) === 0xff && byteAt(bytes, 11) === 0xff) {
    return classifyV4(v4From(bytes, 12, 13, 14, 15));
  }
  // ::ffff:0:a.b.c.d (IPv4-translated, SIIT)
  if (allZero(bytes, 0, 8) && byteAt(bytes, 8) === 0xff && byteAt(bytes, 9) === 0xff && allZero(bytes, 10, 12)) {
    return classifyV4(v4From(bytes, 12, 13, 14, 15));
  }
  // ::a.b.c.d (IPv4-compatible, deprecated; :: and ::1 handled above)
  if (allZero(bytes, 0, 12)) return classifyV4(v4From(bytes, 12, 13, 14, 15));
  // 64:ff9b::/96 (NAT64 well-known prefix)
  if (inV6(bytes, V6_NAT64_WKP, 96)) return classifyV4(v4From(bytes, 12, 13, 14, 15));
  // 64:ff9b:1::/48 (local-use NAT64). The operator picks the prefix length, so
  // where the IPv4 sits is not knowable in general; only the common /96 layout
  // (bytes 6-11 zero) is classified by its embedded address, anything else is refused.
  if (inV6(bytes, V6_NAT64_LOCAL, 48)) {
    return allZero(bytes, 6, 12) ? classifyV4(v4From(bytes, 12, 13, 14, 15)) : "reserved";
  }
  // 2002:AABB:CCDD::/16 (6to4)
  if (inV6(bytes, V6_6TO4, 16)) return classifyV4(v4From(bytes, 2, 3, 4, 5));
  // 2001:0000::/32 (Teredo): the client IPv4 is the last 32 bits, inverted.
  if (inV6(bytes, V6_TEREDO, 32)) return classifyV4((v4From(bytes, 12, 13, 14, 15) ^ 0xffffffff) >>> 0);

  for (const rule of V6_RULES) {
    if (inV6(bytes, rule.base, rule.prefix)) return rule.cls;
  }
  // Only 2000::/3 is allocated for global unicast; everything else is not a fetch target.
  if (!inV6(bytes, V6_GLOBAL_UNICAST, 3)) return "reserved";
  return "public";
}

/**
 * Classify an IPv4 or IPv6 address string (an IPv6 zone such as `%eth0` is ignored).
 *
 * @throws GroundkitError INVALID_ARGUMENT if `ip` is not an IP address.
 * @example
 *   classifyAddress("10.1.2.3");          // "private"
 *   classifyAddress("::ffff:7f00:1");     // "loopback" (IPv4-mapped 127.0.0.1)
 *   classifyAddress("169.254.169.254");   // "metadata"
 */
export function classifyAddress(ip: string): AddressClass {
  const kind = isIP(ip);
  if (kind === 4) {
    const n = parseIPv4(ip);
    if (n !== undefined) return classifyV4(n);
  } else if (kind === 6) {
    const zone = ip.indexOf("%");
    const bytes = parseIPv6(zone >= 0 ? ip.slice(0, zone) : ip);
    if (bytes !== undefined) return classifyV6(bytes);
  }
  throw new GroundkitError("INVALID_ARGUMENT", "Not an IP address.", { value: ip });
}

const PRIVATE_CLASSES: ReadonlySet<AddressClass> = new Set<AddressClass>(["loopback", "private", "cgnat"]);

/** Whether `allowPrivateNetwork` can let an address of this class through (loopback, private, CGNAT); the rest never are. */
export function allowableWithPrivateNetwork(cls: AddressClass): boolean {
  return PRIVATE_CLASSES.has(cls);
}

/**
 * Whether a fetch may connect to `ip`. Public addresses always may; loopback,
 * private (incl. IPv6 unique-local) and CGNAT only with `allowPrivateNetwork`;
 * link-local, metadata, multicast, reserved and unspecified never. A string
 * that is not an IP address is never allowed.
 *
 * @example
 *   isAllowedAddress("127.0.0.1", { allowPrivateNetwork: true });        // true
 *   isAllowedAddress("169.254.169.254", { allowPrivateNetwork: true });  // false
 */
export function isAllowedAddress(ip: string, opts: AddressPolicyOptions): boolean {
  let cls: AddressClass;
  try {
    cls = classifyAddress(ip);
  } catch {
    return false;
  }
  if (cls === "public") return true;
  return opts.allowPrivateNetwork && PRIVATE_CLASSES.has(cls);
}
