/**
 * A TokenService decorator that remembers the claims of tokens it has verified, so that a client
 * presenting the same access token on every request pays for one signature check, the largest cost
 * of an authenticated request. It skips only the signature and format checks, only until the
 * token's `exp`; sessions and accounts are still looked up on every request, failures are never
 * cached, and the least recently used token is forgotten past `maxEntries`.
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
