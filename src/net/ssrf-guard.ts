/**
 * SSRF guard: resolve a host once, classify every address it resolves to,
 * and hand back the one address the connection must be pinned to (so a second,
 * rebinding DNS answer can never be used).
 */
import { promises as dns } from "node:dns";
import { isIP } from "node:net";
import { GroundkitError } from "../core/errors.js";
import { allowableWithPrivateNetwork, classifyAddress, isAllowedAddress, type AddressClass } from "./address-policy.js";
import { isMetadataHostname } from "./metadata-addresses.js";

/** A resolved address. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a hostname to all of its addresses. Injected in tests; {@link systemResolver} otherwise. */
export type Resolver = (hostname: string) => Promise<Array<ResolvedAddress>>;

/** Options for {@link vetHost}. */
export interface VetHostOptions {
  /** Allow loopback, private and CGNAT addresses (intranet hosts). */
  allowPrivateNetwork: boolean;
  /** Defaults to {@link systemResolver}. */
  resolver?: Resolver;
}

/**
 * The operating system's resolver (`getaddrinfo`, so /etc/hosts applies), all
 * addresses in the order the system returns them.
 */
export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function stripBrackets(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

function article(cls: string): string {
  return /^[aeiou]/.test(cls) ? "an" : "a";
}

function blocked(host: string, cls: AddressClass | "unparseable", byName = false): GroundkitError {
  // Name the host and the class only; the concrete address is not echoed back.
  const what = byName ? "it is a cloud metadata host name" : `it resolves to ${article(cls)} ${cls} address`;
  const always = cls === "metadata" ? " Metadata endpoints stay refused even when private networks are allowed." : "";
  // Allowing private networks lets loopback, private and CGNAT addresses through, nothing else: saying so for the rest would mislead.
  const never = cls === "unparseable" || !allowableWithPrivateNetwork(cls);
  return new GroundkitError(
    "SSRF_BLOCKED",
    `Refused to connect to ${JSON.stringify(host)}: ${what}.${always}`,
    { host, addressClass: cls },
    never ? { hint: NEVER_ALLOWED_HINT } : undefined,
  );
}

/** The hint for an address no setting lets through (metadata, link-local, reserved, multicast…). */
const NEVER_ALLOWED_HINT =
  "This address is refused whatever --allow-private-network (allow_private_network) says: point at a host with a public address, or a loopback or private one with that setting.";

function classOf(address: string): AddressClass | "unparseable" {
  try {
    return classifyAddress(address);
  } catch {
    return "unparseable";
  }
}

/**
 * Vet a host before connecting: an IP literal (IPv6 with or without brackets)
 * is classified directly; a cloud metadata host name is refused without a DNS
 * query; any other name is resolved once and EVERY address is classified. If
 * any address is disallowed the host is refused. Returns the address to pin
 * the connection to.
 *
 * @throws GroundkitError SSRF_BLOCKED (disallowed address), FETCH_FAILED (name does not resolve)
 * @example
 *   const { address } = await vetHost("example.com", { allowPrivateNetwork: false });
 */
export async function vetHost(hostname: string, opts: VetHostOptions): Promise<ResolvedAddress> {
  const host = stripBrackets(hostname);
  const literal = isIP(host);
  if (literal !== 0) {
    if (!isAllowedAddress(host, opts)) throw blocked(host, classOf(host));
    return { address: host, family: literal === 6 ? 6 : 4 };
  }

  if (isMetadataHostname(host)) throw blocked(host, "metadata", true);

  const resolver = opts.resolver ?? systemResolver;
  let answers: ResolvedAddress[];
  try {
    answers = await resolver(host);
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    throw new GroundkitError(
      "FETCH_FAILED",
      `Could not resolve host ${JSON.stringify(host)}${typeof code === "string" ? ` (${code})` : ""}.`,
      { host, ...(typeof code === "string" ? { errorCode: code } : {}) },
      { cause: err },
    );
  }
  if (answers.length === 0) {
    throw new GroundkitError("FETCH_FAILED", `Could not resolve host ${JSON.stringify(host)} (no addresses).`, {
      host,
    });
  }
  for (const answer of answers) {
    if (isIP(answer.address) === 0) throw blocked(host, "unparseable");
    if (!isAllowedAddress(answer.address, opts)) throw blocked(host, classOf(answer.address));
  }
  const first = answers[0] as ResolvedAddress;
  return { address: first.address, family: isIP(first.address) === 6 ? 6 : 4 };
}
