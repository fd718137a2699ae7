import { DomainError } from '../shared/errors.js';
import { sha256Hex } from '../shared/ids.js';
import type { AbortSignalLike } from '../shared/security.js';
import { Issues } from '../shared/validation.js';
import { newPassword } from './password.js';
import type { PasswordResetDependencies } from './password-reset.js';

export interface ConfirmPasswordResetInput {
  readonly token: unknown;
  readonly password: unknown;
  /** Fires when nobody waits for the answer any more: a hash not yet started is then never computed. */
  readonly signal?: AbortSignalLike;
}

/**
 * Sets a new password with a token from a reset email. The token is spent (a second use, an
 * expired or an unknown token: `invalid_reset_token`), every session of the account is revoked
 * (its access and refresh tokens stop working) and the account's other reset tokens go too.
 * An unknown token costs a look-up, never a hash: the new password is hashed only for a live
 * token, and the token is spent only once the hash is ready, so a busy hasher
 * (`service_unavailable`) leaves the token usable for a retry.
 */
export class ConfirmPasswordReset {
  constructor(private readonly deps: PasswordResetDependencies) {}

  /** Resolves with the account whose password was reset (an HTTP adapter ends its live streams). */
  async execute(input: ConfirmPasswordResetInput): Promise<{ readonly customerId: string }> {
    const issues = new Issues();
    if (typeof input.token !== 'string' || input.token === '' || input.token.length > 256) {
      issues.add('token', 'is required: the token from the reset email');
    }
    const password = newPassword(input.password, 'password', issues);
    issues.throwIfAny();
    const { resetTokens, hasher, sessions, clock } = this.deps;

    const tokenHash = await sha256Hex(input.token as string);
    const found = await resetTokens.find(tokenHash, clock.now());
    if (found === null) throw invalidResetToken();
    const passwordHash = await hasher.hash(password, input.signal === undefined ? {} : { signal: input.signal });
    const spent = await resetTokens.consume(tokenHash, clock.now());
    if (spent === null) throw invalidResetToken();

    if (!(await this.replaceHash(spent.customerId, passwordHash))) throw invalidResetToken();
    await sessions.revokeAllOf(spent.customerId, clock.now());
    await resetTokens.deleteAllOf(spent.customerId);
    return { customerId: spent.customerId };
  }

  /**
   * Compare-and-set against the hash just read, again if a login's re-hash got in between; false
   * when the account is gone (erased since the email was sent).
   */
  private async replaceHash(customerId: string, passwordHash: string): Promise<boolean> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const customer = await this.deps.customers.findById(customerId);
      if (customer === null) return false;
      if (await this.deps.customers.updatePasswordHash(customerId, customer.passwordHash, passwordHash)) return true;
    }
    throw new DomainError('conflict', 'The account changed while its password was being reset; send the request again.');
  }
}

function invalidResetToken(): DomainError {
  return new DomainError('invalid_reset_token', 'This reset link is unknown, expired or already used: ask for a new one.');
}
