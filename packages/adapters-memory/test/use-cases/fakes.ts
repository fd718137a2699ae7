/**
 * Stand-ins for the password hasher and token service, for the use-case tests ONLY: the real
 * scrypt and PASETO adapters live in @storefront/adapters-crypto, which is being written at the
 * same time. They keep the behaviour the use cases rely on (a hash that verifies only its own
 * password; tokens that expire and can be told apart from garbage) and count hash verifications,
 * so a test can check that an unknown email costs the same as a wrong password.
 */
import type { AccessClaims, Clock, PasswordHasher, TokenService } from '@storefront/domain';
import { DomainError } from '@storefront/domain';

export class FakePasswordHasher implements PasswordHasher {
  verifications = 0;
  hashes = 0;
  /** Stands for the cost: hashes name the version they were made with, and verify at that version. */
  version = 1;

  async hash(password: string): Promise<string> {
    this.hashes += 1;
    return this.hashAt(this.version, password);
  }

  async verify(hash: string, password: string): Promise<boolean> {
    this.verifications += 1;
    const version = Number(/^fake-v(\d+)\$/.exec(hash)?.[1]);
    return hash === this.hashAt(version, password);
  }

  needsRehash(hash: string): boolean {
    return !hash.startsWith(`fake-v${this.version}$`);
  }

  private hashAt(version: number, password: string): string {
    return `fake-v${version}$${Buffer.from(password).toString('base64url')}`;
  }
}

export class FakeTokenService implements TokenService {
  constructor(private readonly clock: Clock) {}

  async issue(claims: { readonly sub: string; readonly sid: string }, ttlSeconds: number): Promise<string> {
    const exp = Math.floor(this.clock.now().getTime() / 1000) + ttlSeconds;
    return `fake.${Buffer.from(JSON.stringify({ sub: claims.sub, sid: claims.sid, exp })).toString('base64url')}`;
  }

  async verify(token: string): Promise<AccessClaims> {
    let claims: AccessClaims;
    try {
      if (!token.startsWith('fake.')) throw new Error('not a fake token');
      claims = JSON.parse(Buffer.from(token.slice(5), 'base64url').toString('utf8')) as AccessClaims;
    } catch (error) {
      throw new DomainError('invalid_token', 'The access token is invalid.', { cause: error });
    }
    if (claims.exp * 1000 <= this.clock.now().getTime()) throw new DomainError('token_expired', 'The access token has expired.');
    return claims;
  }
}
