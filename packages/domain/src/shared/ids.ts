/**
 * Opaque, unguessable identifiers with a type prefix (`prd_`, `cus_`, `ord_`, `ses_`), from the
 * Web Crypto API that Node >= 20, Deno, Bun, workers and browsers all provide.
 */
interface WebCrypto {
  getRandomValues<T extends Uint8Array>(array: T): T;
  subtle: { digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer> };
}
interface Encoder {
  encode(text: string): Uint8Array;
}
const runtime = globalThis as unknown as { crypto: WebCrypto; TextEncoder: new () => Encoder };
const webCrypto = runtime.crypto;
const encoder = new runtime.TextEncoder();

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower-case

/**
 * Random bytes are drawn from the CSPRNG 4 KiB at a time and handed out once each, in order (as
 * node's randomUUID does): one getRandomValues call per ~150 ids instead of one per id, since that
 * call is costly (docs/performance.md).
 */
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let poolAt = 0;

export function randomToken(length: number): string {
  if (length > POOL_BYTES) return Array.from(webCrypto.getRandomValues(new Uint8Array(length)), (byte) => ALPHABET[byte & 31]).join('');
  if (poolAt + length > pool.length) {
    pool = webCrypto.getRandomValues(new Uint8Array(POOL_BYTES));
    poolAt = 0;
  }
  const token = tokenOf(pool, poolAt, poolAt + length);
  poolAt += length;
  return token;
}

const ALPHABET_CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0));

/**
 * The characters of `bytes[from..end)` as one flat string. Not `out += ...`: past 12 characters each
 * append makes a rope node, and a token that is kept (a key record's owner, for a day) would keep
 * all of them.
 */
function tokenOf(bytes: Uint8Array, from: number, end: number): string {
  const codes = new Array<number>(end - from);
  for (let i = from; i < end; i++) codes[i - from] = ALPHABET_CODES[bytes[i]! & 31]!;
  return String.fromCharCode(...codes);
}

/** `length` fresh bytes from the CSPRNG (secrets: never from the id pool, whose bytes are only 5 bits each in use). */
export function randomBytes(length: number): Uint8Array {
  return webCrypto.getRandomValues(new Uint8Array(length));
}

/** Type prefixes of ids: product, customer, order, session. */
export type IdPrefix = 'prd' | 'cus' | 'ord' | 'ses' | 'whk' | 'wdl';

/** A new opaque id, e.g. `prd_7mz3k9qh2w4x8c1v5n6b`: the prefix and 20 base32 characters (100 random bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomToken(20)}`;
}

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32]! + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** Four base-32 digits of per-millisecond sequence. */
const SEQUENCES_PER_MS = 32 ** 4;

/**
 * Order ids sort like their creation: a 10-character time part, then randomness. Within one
 * process ids and timestamps never go backwards (clock steps included), so a client following
 * `next_page` through orders listed by (created_at, order_id) never sees a row move.
 */
export class OrderStamper {
  private lastMs = 0;
  private sequence = 0;

  next(now: Date): { orderId: string; createdAt: Date } {
    let ms = now.getTime();
    if (ms <= this.lastMs) {
      ms = this.lastMs;
      this.sequence += 1;
      if (this.sequence >= SEQUENCES_PER_MS) {
        // The sequence has four base-32 digits; a fifth would break the ids' sort order, so borrow
        // the next millisecond instead (only a stuck or stepped-back clock ever gets here).
        ms += 1;
        this.lastMs = ms;
        this.sequence = 0;
      }
    } else {
      this.lastMs = ms;
      this.sequence = 0;
    }
    const seq = this.sequence.toString(32).padStart(4, '0');
    return { orderId: `ord_${encodeTime(ms)}${seq}${randomToken(12)}`, createdAt: new Date(ms) };
  }
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await webCrypto.subtle.digest('SHA-256', encoder.encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Prefixes of ids derived from names rather than drawn at random: option groups and options. */
export type DerivedIdPrefix = 'grp' | 'opt';

/**
 * An id of the same shape as `newId`'s (prefix and 20 base32 characters, 100 bits) derived from
 * `key` by SHA-256: the same key always gives the same id, in every store and every process.
 */
export async function derivedId(prefix: DerivedIdPrefix, key: string): Promise<string> {
  const digest = new Uint8Array(await webCrypto.subtle.digest('SHA-256', encoder.encode(key)));
  let out = `${prefix}_`;
  for (let i = 0; i < 20; i++) out += ALPHABET[digest[i]! & 31];
  return out;
}

/**
 * The creation time (epoch ms) an order id of OrderStamper carries in its time part, or undefined
 * for an id of another shape. Stores use it to find an order by id without an index of all ids.
 */
export function orderIdTime(orderId: string): number | undefined {
  if (orderId.length < 14 || !orderId.startsWith('ord_')) return undefined;
  let ms = 0;
  for (let i = 4; i < 14; i++) {
    const digit = ALPHABET.indexOf(orderId[i]!);
    if (digit < 0) return undefined;
    ms = ms * 32 + digit;
  }
  return ms;
}
