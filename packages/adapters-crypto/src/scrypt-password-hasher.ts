/**
 * PasswordHasher on scrypt (scrypt-kdf: OpenSSL's scrypt on libuv's thread pool, so hashing never
 * blocks the event loop). Hashes are stored as base64 of scrypt-kdf's 96-byte self-describing key
 * (parameters + salt + HMAC), so a change of cost applies to new hashes while old ones still verify.
 */
import * as scryptModule from 'scrypt-kdf';
import { DomainError, type PasswordHasher } from '@storefront/domain';
import { type HashOptions } from '@storefront/domain/adapter-kit';
import { Semaphore, SemaphoreRefusedError, type SemaphoreStats } from './semaphore.js';

// scrypt-kdf's JavaScript has only a default export (the Scrypt class with static methods) while its
// .d.ts declares the same functions as named exports; read them from the default export.
type ScryptApi = Pick<typeof scryptModule, 'kdf' | 'verify'>;
const Scrypt = (scryptModule as unknown as { default: ScryptApi }).default;

export interface ScryptCost {
  /** log2 of the CPU/memory cost N. Default 17 (OWASP): 128 MiB per operation with r = 8. */
  readonly logN?: number;
  /** Block size. Default 8. */
  readonly r?: number;
  /** Parallelisation. Default 1. */
  readonly p?: number;
}

export interface ScryptPasswordHasherOptions extends ScryptCost {
  /** Hash and verify operations allowed to run at once; more wait their turn. Default 4. */
  readonly maxConcurrency?: number;
  /**
   * Operations allowed to wait for their turn; one more is refused at once with
   * `service_unavailable`. Default 64 (docs/decisions.md); 0: never wait.
   */
  readonly maxQueue?: number;
  /** An operation still waiting for its turn after this is refused with `service_unavailable`. Default 1000. */
  readonly maxWaitMs?: number;
}

export const DEFAULT_SCRYPT_COST = { logN: 17, r: 8, p: 1 } as const;
export const DEFAULT_SCRYPT_CONCURRENCY = 4;
/**
 * The wait deadline is what bounds a login's time; the queue bound only refuses a flood at once and
 * caps what waiting costs. 64 is far above the waiters 4 permits serve within the deadline at the
 * default cost (about 5 on a 2-core machine), so it refuses no login the deadline would let through.
 */
export const DEFAULT_SCRYPT_MAX_QUEUE = 64;
/** With a hash of ~0.4–1 s at the default cost, a login is answered within ~2 s (docs/decisions.md). */
export const DEFAULT_SCRYPT_MAX_WAIT_MS = 1000;
/** What a refused caller is told to wait: a second is several hashes at any sane cost. */
const RETRY_AFTER_SECONDS = 1;

const KEY_BYTES = 96;
const MAGIC = 'scrypt';
/** A stored hash asking for more than this is refused rather than computed (a corrupt or hostile row). */
const MAX_VERIFY_MEMORY_BYTES = 2 ** 30;
const MAX_VERIFY_P = 16;

export class ScryptPasswordHasher implements PasswordHasher {
  readonly cost: Required<ScryptCost>;
  private readonly semaphore: Semaphore;

  constructor(options: ScryptPasswordHasherOptions = {}) {
    this.cost = {
      logN: options.logN ?? DEFAULT_SCRYPT_COST.logN,
      r: options.r ?? DEFAULT_SCRYPT_COST.r,
      p: options.p ?? DEFAULT_SCRYPT_COST.p,
    };
    const { logN, r, p } = this.cost;
    if (!Number.isInteger(logN) || logN < 1 || logN > 30) throw new RangeError(`logN must be an integer from 1 to 30, got ${logN}`);
    if (!Number.isInteger(r) || r < 1) throw new RangeError(`r must be a positive integer, got ${r}`);
    if (!Number.isInteger(p) || p < 1) throw new RangeError(`p must be a positive integer, got ${p}`);
    this.semaphore = new Semaphore(options.maxConcurrency ?? DEFAULT_SCRYPT_CONCURRENCY, {
      maxQueue: options.maxQueue ?? DEFAULT_SCRYPT_MAX_QUEUE,
      maxWaitMs: options.maxWaitMs ?? DEFAULT_SCRYPT_MAX_WAIT_MS,
    });
  }

  /**
   * Running and queued operations, the most ever run at once, and how many were started, refused
   * (queue full, waited too long) or abandoned (their caller gave up first): the bounds, observable.
   */
  get stats(): SemaphoreStats {
    return this.semaphore.stats;
  }

  get maxConcurrency(): number {
    return this.semaphore.permits;
  }

  get maxQueue(): number {
    return this.semaphore.maxQueue;
  }

  get maxWaitMs(): number {
    return this.semaphore.maxWaitMs;
  }

  /** Rejects `service_unavailable`, computing nothing, when too busy or when `signal` fired first. */
  hash(password: string, options: HashOptions = {}): Promise<string> {
    const passphrase = normalize(password);
    return this.run(async () => Buffer.from(await Scrypt.kdf(passphrase, this.cost)).toString('base64'), options);
  }

  /**
   * False for a wrong password and for a hash that is not one of ours; never throws for those.
   * Rejects `service_unavailable`, computing nothing, when too busy or when `signal` fired first.
   */
  verify(hash: string, password: string, options: HashOptions = {}): Promise<boolean> {
    const key = decodeKey(hash);
    if (key === null || typeof password !== 'string') return Promise.resolve(false);
    const passphrase = normalize(password);
    return this.run(async () => {
      try {
        return await Scrypt.verify(key, passphrase);
      } catch {
        return false;
      }
    }, options);
  }

  /** True when `hash` is not of the current cost (or not ours at all): hash the password again. */
  needsRehash(hash: string): boolean {
    const key = decodeKey(hash);
    if (key === null) return true;
    const { logN, r, p } = parametersOf(key);
    return logN !== this.cost.logN || r !== this.cost.r || p !== this.cost.p;
  }

  private async run<T>(task: () => Promise<T>, { signal, client }: HashOptions): Promise<T> {
    try {
      return await this.semaphore.run(task, signal, client);
    } catch (error) {
      if (!(error instanceof SemaphoreRefusedError)) throw error;
      // An abandoned caller's answer was already sent (or nobody reads it): the code only keeps
      // the error out of the error log. The others are told to come back shortly.
      throw new DomainError('service_unavailable', 'Too many password checks are waiting; retry in a moment.', {
        cause: error,
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      });
    }
  }
}

/**
 * The same password typed on different keyboards can reach us composed or decomposed; NFKC makes
 * them one (NIST SP 800-63B §5.1.1.2).
 */
function normalize(password: string): string {
  return password.normalize('NFKC');
}

/** The 96-byte scrypt-kdf key of a stored hash, or null when it is malformed or asks too much. */
function decodeKey(hash: unknown): Uint8Array | null {
  if (typeof hash !== 'string' || !/^[A-Za-z0-9+/]{128}$/.test(hash)) return null;
  const key = new Uint8Array(Buffer.from(hash, 'base64'));
  if (key.length !== KEY_BYTES || Buffer.from(key.subarray(0, 6)).toString('latin1') !== MAGIC || key[6] !== 0) return null;
  const { logN, r, p } = parametersOf(key);
  if (logN < 1 || logN > 30 || r < 1 || p < 1 || p > MAX_VERIFY_P) return null;
  if (128 * r * 2 ** logN > MAX_VERIFY_MEMORY_BYTES) return null;
  return key;
}

/** The cost a scrypt-kdf key was made with: bytes 7 (log2 N), 8–11 (r) and 12–15 (p), big-endian. */
function parametersOf(key: Uint8Array): Required<ScryptCost> {
  const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
  return { logN: view.getUint8(7), r: view.getUint32(8, false), p: view.getUint32(12, false) };
}
