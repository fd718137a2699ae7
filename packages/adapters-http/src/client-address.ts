/**
 * Whose per-IP quota a client address spends: an IPv4 address is one client; IPv6 callers are
 * counted by their /64 (a subscriber is routinely handed one, RFC 6177); an IPv4-mapped address is
 * the IPv4 one. Behind trusted proxies a forwarded value that is not a plain address counts as the
 * socket's address, and addresses are keyed in one canonical spelling, so that no spelling buys a
 * fresh quota (docs/decisions.md, "Client address and proxy hops", "IPv6 callers by /64").
 */
/** A decimal byte without leading zeros (`002` is octal to some parsers, decimal to others: refused). */
const BYTE = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${BYTE}\\.${BYTE}\\.${BYTE}\\.${BYTE}$`);
const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
const BRACKETED = /^\[([^\]]+)\](?::\d{1,5})?$/;
const HEXTET = /^[0-9a-f]{1,4}$/;

/**
 * The key of the client: the forwarded address when there is one and it is an address, else the
 * socket's (`forwarded` is undefined unless proxies are trusted).
 */
export function clientKeyOf(forwarded: string | undefined, socketAddress: string): string {
  return (forwarded === undefined ? undefined : rateLimitKeyOfAddress(forwarded)) ?? rateLimitKeyOfAddress(socketAddress) ?? socketAddress;
}

/**
 * `2001:db8:1:2:aaaa::1` → `2001:db8:1:2::/64`; `::ffff:192.0.2.1` → `192.0.2.1`; an IPv4
 * address as it is. Also accepted: a zone id (`fe80::1%eth0`), brackets and a port
 * (`[2001:db8::1]:443`, `192.0.2.1:443`), as some proxies write them. Undefined for anything that
 * is not an address.
 */
export function rateLimitKeyOfAddress(address: string): string | undefined {
  // The common cases, an IPv4 peer on an IPv4 or a dual-stack socket: one regular expression.
  if (!address.includes(':')) return IPV4.test(address) ? address : undefined;
  if (address.startsWith('::ffff:') && ipv4Bytes(address.slice(7)) !== undefined) return address.slice(7);
  const text = address.trim();
  const v4WithPort = IPV4_WITH_PORT.exec(text);
  if (v4WithPort !== null) return ipv4Bytes(v4WithPort[1]!) === undefined ? undefined : v4WithPort[1]!;
  const bracketed = BRACKETED.exec(text);
  const hextets = parseIpv6((bracketed === null ? text : bracketed[1]!).toLowerCase());
  if (hextets === undefined) return undefined;
  if (hextets.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff) {
    const [high, low] = [hextets[6]!, hextets[7]!];
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  return `${hextets.slice(0, 4).map((h) => h.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped), or undefined if it is not one. */
function parseIpv6(text: string): number[] | undefined {
  const zone = text.indexOf('%');
  const bare = zone === -1 ? text : text.slice(0, zone);
  const halves = bare.split('::');
  if (halves.length > 2) return undefined;
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  return [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
}

/** `a:b:c` → its groups; a last group written as IPv4 (`::ffff:1.2.3.4`) counts as two. */
function groupsOf(part: string): number[] | undefined {
  if (part === '') return [];
  const groups: number[] = [];
  const pieces = part.split(':');
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (i === pieces.length - 1 && piece.includes('.')) {
      const bytes = ipv4Bytes(piece);
      if (bytes === undefined) return undefined;
      groups.push((bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!);
    } else if (HEXTET.test(piece)) {
      groups.push(parseInt(piece, 16));
    } else {
      return undefined;
    }
  }
  return groups;
}

/** The four bytes of a dotted IPv4 address, or undefined if it is not one. */
function ipv4Bytes(text: string): number[] | undefined {
  const match = IPV4.exec(text);
  return match === null ? undefined : match.slice(1).map(Number);
}
