/**
 * The real scrypt hasher, counted: a use-case test can check that an unknown email costs a hash
 * check as a wrong password does, and can switch to another cost as an operator raising
 * SCRYPT_LOG_N would. It computes nothing itself: every call goes to the hasher it wraps.
 */
import type { PasswordHasher } from '@storefront/domain';
import type { HashOptions } from '@storefront/domain/adapter-kit';

export class CountingHasher implements PasswordHasher {
  hashes = 0;
  verifications = 0;

  /** @param current the hasher new hashes are made with; replace it to change the cost. */
  constructor(public current: PasswordHasher) {}

  hash(password: string, options?: HashOptions): Promise<string> {
    this.hashes += 1;
    return this.current.hash(password, options);
  }

  verify(hash: string, password: string, options?: HashOptions): Promise<boolean> {
    this.verifications += 1;
    return this.current.verify(hash, password, options);
  }

  needsRehash(hash: string): boolean {
    return this.current.needsRehash(hash);
  }
}
