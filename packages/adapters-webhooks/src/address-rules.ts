/**
 * The address rules of DECISIONS "Webhooks (outgoing)": a webhook may only reach a public address.
 * One place decides what "public" is, for both the registration check (url-policy.ts) and the
 * check of the address each delivery's connection is made to (http-sender.ts).
 *
 * ipaddr.js classifies an address into its IANA special-purpose ranges; anything it does not call
 * plain `unicast` is refused: loopback, private (RFC 1918), link-local, CGNAT (100.64/10),
 * unique-local (fc00::/7), multicast, unspecified, broadcast, reserved, documentation and the
 * tunnelling and translation prefixes (6to4, Teredo, NAT64), which can carry a private IPv4 address
 * inside. An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is judged as the IPv4 address it is.
 */
import ipaddr from 'ipaddr.js';

/** Why `address` (an IP address as text, without brackets) may not be reached; null when it may. */
export function refusedAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  // process() turns an IPv4-mapped IPv6 address into its IPv4 address.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  return range === 'unicast' ? null : `${parsed.toString()} is a ${RANGE_NAMES[range] ?? `${range}`} address, not a public one`;
}

/**
 * Names that always mean this machine, whatever DNS says (RFC 6761 §6.3): refused without asking
 * the resolver. WHATWG URL has already lower-cased the host; a trailing dot is the same name.
 */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return name === 'localhost' || name.endsWith('.localhost');
}

/** The IP address a URL's host spells (WHATWG URL has normalised every IPv4 spelling), or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  if (hostname.startsWith('[') && hostname.endsWith(']')) return hostname.slice(1, -1);
  return ipaddr.IPv4.isValidFourPartDecimal(hostname) ? hostname : undefined;
}

const RANGE_NAMES: Readonly<Record<string, string>> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  reserved: 'reserved',
  uniqueLocal: 'unique-local',
};
