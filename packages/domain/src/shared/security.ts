/**
 * The part of the standard AbortSignal the ports read: a caller's way of saying "nobody needs this
 * any more" (over HTTP: the request was answered or the client left). Declared here because the
 * domain is compiled without DOM or Node types; a real AbortSignal satisfies it.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface HashOptions {
  /** When it fires before the hash has started, the hash is never computed (rejects `service_unavailable`). */
  readonly signal?: AbortSignalLike;
  /**
   * Whose work this is (the client address over HTTP). A hasher that makes callers wait shares the
   * waiting places and turns fairly between clients, so that one client's flood cannot shut out
   * another's login. Absent: one anonymous client.
   */
  readonly client?: string;
}

/**
 * Password hashing (scrypt in production). Implementations bound their own concurrency and how
 * long a call may wait for its turn: beyond that they reject with DomainError
 * `service_unavailable` (with `retryAfterSeconds`) without computing anything.
 */
export interface PasswordHasher {
  hash(password: string, options?: HashOptions): Promise<string>;
  /** Constant-time comparison; resolves false on any mismatch, never throws for a bad password. */
  verify(hash: string, password: string, options?: HashOptions): Promise<boolean>;
  /** True when `hash` was made with other parameters than new hashes get (hash again after a login). */
  needsRehash(hash: string): boolean;
}

/** The claims of an access token. */
export interface AccessClaims {
  /** Customer id. */
  readonly sub: string;
  /** Session id. */
  readonly sid: string;
  /** Expiry, epoch seconds. */
  readonly exp: number;
}

/** Issues and verifies signed access tokens (PASETO v4.public in production). */
export interface TokenService {
  issue(claims: { readonly sub: string; readonly sid: string }, ttlSeconds: number): Promise<string>;
  /** Resolves the claims, or rejects with DomainError `invalid_token` / `token_expired`. */
  verify(token: string): Promise<AccessClaims>;
}

/** Port: the current time (tests pass a fake one). */
export interface Clock {
  now(): Date;
}

/** The Clock of the machine. */
export const systemClock: Clock = { now: () => new Date() };
