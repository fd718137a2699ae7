/** Password hashing (scrypt in production). Implementations bound their own concurrency. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Constant-time comparison; resolves false on any mismatch, never throws for a bad password. */
  verify(hash: string, password: string): Promise<boolean>;
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
