/**
 * A TokenService decorator that remembers the claims of tokens it has verified, so that a client
 * presenting the same access token on every request pays for one signature check (Ed25519 in
 * production: the largest cost of an authenticated request), not one per request.
 *
 * What it may and may not skip:
 *  - only the signature and format checks of a token already verified, and only until its `exp`
 *    (by the clock the use cases run on): at `exp` the entry is dropped and the token goes to the
 *    inner service again, which decides (expired, or still inside its clock tolerance) as if there
 *    were no cache;
 *  - nothing about sessions or accounts: Authenticate still looks up the session and the customer
 *    on every request, so a logout, a revoked session or a disabled account takes effect at once;
 *  - failures are never cached: a bad token is verified (and refused) every time.
 * The key is the whole token string, so a token differing by one character is a miss. Memory is
 * bounded: past `maxEntries` the least recently used token is forgotten. The app wraps the
 * PasetoTokenService in it (crypto-module.ts); an embedder may wrap any TokenService.
 */
import type { Clock, TokenService } from '@storefront/domain';
import { systemClock, type AccessClaims } from '@storefront/domain/adapter-kit';

export interface VerifiedTokenCacheOptions {
  /** Tokens remembered at once. Default 10,000 (a few MB). */
  readonly maxEntries?: number;
  readonly clock?: Clock;
}

export const DEFAULT_VERIFIED_TOKEN_CACHE_SIZE = 10_000;

export class CachingTokenService implements TokenService {
  // Map order is insertion order; a hit is moved to the end, so the first entry is the least recent.
  private readonly verified = new Map<string, AccessClaims>();
  private readonly maxEntries: number;
  private readonly clock: Clock;

  constructor(
    private readonly inner: TokenService,
    options: VerifiedTokenCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? DEFAULT_VERIFIED_TOKEN_CACHE_SIZE;
    if (!Number.isInteger(this.maxEntries) || this.maxEntries < 1) {
      throw new RangeError(`maxEntries must be a positive integer, got ${this.maxEntries}`);
    }
    this.clock = options.clock ?? systemClock;
  }

  /** Tokens remembered now. */
  get size(): number {
    return this.verified.size;
  }

  issue(claims: { readonly sub: string; readonly sid: string }, ttlSeconds: number): Promise<string> {
    return this.inner.issue(claims, ttlSeconds);
  }

  async verify(token: string): Promise<AccessClaims> {
    const cached = this.verified.get(token);
    if (cached !== undefined) {
      this.verified.delete(token);
      if (this.live(cached)) {
        this.verified.set(token, cached);
        return cached;
      }
    }
    const claims = await this.inner.verify(token);
    if (this.live(claims)) this.remember(token, claims);
    return claims;
  }

  /** Before `exp`: a token at or past it is never answered from the cache. */
  private live(claims: AccessClaims): boolean {
    return this.clock.now().getTime() < claims.exp * 1000;
  }

  private remember(token: string, claims: AccessClaims): void {
    this.verified.set(token, Object.freeze({ sub: claims.sub, sid: claims.sid, exp: claims.exp }));
    while (this.verified.size > this.maxEntries) {
      const oldest = this.verified.keys().next();
      if (oldest.done === true) break;
      this.verified.delete(oldest.value);
    }
  }
}
