/**
 * The address rules of DECISIONS "Webhooks (outgoing)": a webhook may only reach a public address.
 * One place decides what "public" is, for the registration check (url-policy.ts) and for the
 * address each delivery connects to (http-sender.ts). Anything ipaddr.js does not call plain
 * `unicast` is refused, and an IPv6 address that carries an IPv4 one is judged by the IPv4 address,
 * since that is where the packets end up (docs/decisions.md, "Webhooks: sending, the address
 * rules").
 */
import ipaddr from 'ipaddr.js';

/** Why `address` (an IP address as text, without brackets) may not be reached; null when it may. */
export function refusedAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return refusedRange(parsed);
  // Ranges that carry an IPv4 address are judged by it; the others (::1 among them) as they are.
  if (!CARRYING_RANGES.has(parsed.range())) return refusedRange(parsed);
  const bytes = parsed.toByteArray();
  if (startsWith(bytes, NAT64_LOCAL_USE)) return `${parsed.toString()} is a local-use NAT64 address, not a public one`;
  const carried = carriedIPv4(bytes);
  if (carried.length === 0) return refusedRange(parsed);
  for (const ipv4 of carried) {
    const reason = refusedRange(ipv4);
    if (reason !== null) return `${parsed.toString()} carries ${reason}`;
  }
  return null;
}

function refusedRange(parsed: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  const range = parsed.range();
  return range === 'unicast' ? null : `${parsed.toString()} is a ${RANGE_NAMES[range] ?? `${range}`} address, not a public one`;
}

const CARRYING_RANGES = new Set(['unicast', 'ipv4Mapped', 'rfc6052', '6to4', 'teredo']);
const NAT64_LOCAL_USE = [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01];
const NAT64 = [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0];
const MAPPED = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];
const COMPATIBLE = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const SIX_TO_FOUR = [0x20, 0x02];
const TEREDO = [0x20, 0x01, 0x00, 0x00];

/** The IPv4 addresses an IPv6 address carries (RFC 4291 §2.5.5, RFC 6052, RFC 3056, RFC 4380), none for the others. */
function carriedIPv4(bytes: readonly number[]): ipaddr.IPv4[] {
  const ipv4 = (from: number, invert = false): ipaddr.IPv4 => new ipaddr.IPv4(bytes.slice(from, from + 4).map((b) => (invert ? b ^ 0xff : b)));
  if (startsWith(bytes, MAPPED) || startsWith(bytes, COMPATIBLE) || startsWith(bytes, NAT64)) return [ipv4(12)];
  if (startsWith(bytes, SIX_TO_FOUR)) return [ipv4(2)];
  // Teredo: the server's address, then the client's, stored inverted in the last 32 bits.
  if (startsWith(bytes, TEREDO)) return [ipv4(4), ipv4(12, true)];
  return [];
}

function startsWith(bytes: readonly number[], prefix: readonly number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte);
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
