/**
 * Cloud metadata and credential endpoints: the one list of addresses and host
 * names a fetch never reaches, whatever `allowPrivateNetwork` says. They hand
 * out instance credentials and user data, so an SSRF that reaches one is a
 * credential leak. Several sit inside ranges the private-network opt-in allows
 * (fc00::/7, CGNAT) or in public space, so the ranges alone cannot catch them.
 *
 * IPv4-mapped, NAT64, 6to4 and Teredo forms of the IPv4 entries are caught by
 * address-policy.ts, which classifies an embedded IPv4 address like the
 * address itself.
 */

/** IPv4 metadata and credential endpoints, each with where it is documented. */
export const METADATA_IPV4: readonly string[] = [
  // Instance metadata (IMDS) of AWS EC2, GCP Compute Engine, Azure IMDS, OpenStack Nova,
  // DigitalOcean, Oracle Cloud (OCI), Hetzner Cloud, Akamai (Linode) and Huawei Cloud.
  "169.254.169.254",
  // AWS ECS task metadata and container credentials (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI).
  "169.254.170.2",
  // AWS EKS Pod Identity Agent credentials (EKS user guide, "Set up the Amazon EKS Pod Identity Agent").
  "169.254.170.23",
  // Azure WireServer / host agent (also Azure's DNS and health probe source); public address space.
  "168.63.129.16",
  // Alibaba Cloud ECS instance metadata; inside CGNAT 100.64.0.0/10.
  "100.100.100.200",
  // Oracle Cloud Infrastructure Classic / Cloud at Customer instance metadata.
  "192.0.0.192",
  // Tencent Cloud CVM instance metadata (metadata.tencentyun.com).
  "169.254.0.23",
  // Scaleway instance metadata (cloud-init Scaleway datasource).
  "169.254.42.42",
];

/** IPv6 metadata and credential endpoints, each with where it is documented. */
export const METADATA_IPV6: readonly string[] = [
  // AWS EC2 IMDS over IPv6 (Nitro instances); inside unique-local fc00::/7.
  "fd00:ec2::254",
  // AWS EKS Pod Identity Agent credentials over IPv6; inside fc00::/7.
  "fd00:ec2::23",
  // GCP Compute Engine metadata server over IPv6 (IPv6-only VMs); inside fc00::/7.
  "fd20:ce::254",
  // Akamai (Linode) metadata service over IPv6 (cloud-init Akamai datasource); inside fc00::/7.
  "fd00:a9fe:a9fe::1",
  // Scaleway instance metadata over IPv6 (cloud-init Scaleway datasource); inside fc00::/7.
  "fd00:42::42",
  // OpenStack Neutron metadata over IPv6 (169.254.169.254 in fe80::/10; Ussuri spec).
  "fe80::a9fe:a9fe",
];

/** Host names that name a metadata server, refused before any DNS query. */
export const METADATA_HOSTNAMES: readonly string[] = [
  // GCP Compute Engine metadata server, and the short name its guest /etc/hosts maps.
  "metadata.google.internal",
  "metadata",
  // AWS EC2 IMDS names answered by the Amazon-provided DNS.
  "instance-data",
  "instance-data.ec2.internal",
  // Tencent Cloud CVM instance metadata.
  "metadata.tencentyun.com",
];

const HOSTNAMES: ReadonlySet<string> = new Set(METADATA_HOSTNAMES);

/**
 * Whether `hostname` (as a URL gives it: any case, optional trailing dots) is a
 * metadata server's name.
 *
 * @example
 *   isMetadataHostname("Metadata.Google.Internal."); // true
 *   isMetadataHostname("example.com");               // false
 */
export function isMetadataHostname(hostname: string): boolean {
  return HOSTNAMES.has(hostname.toLowerCase().replace(/\.+$/, ""));
}
