import type { AccountPorts } from './account-ports.js';
import { DomainError } from '../shared/errors.js';
import { emailOf, givenEmail } from './email.js';
import { givenPassword } from './password.js';
import { Issues } from '../shared/validation.js';
import type { AbortSignalLike, HashOptions, TokenService } from '../shared/security.js';
import { countPasswordAttempt, type PasswordAttemptPolicies } from './password-attempts.js';
import type { TokenPair } from './session-tokens.js';
import { openSession } from './session-tokens.js';

/** Credentials as received: checked here, so `unknown` is fine. */
export interface LoginInput {
  readonly email: unknown;
  readonly password: unknown;
  /** Who is asking, for the per-client login limit (an IP address over HTTP). */
  readonly client: string;
  /**
   * Fires when nobody waits for the answer any more (over HTTP: the request was answered by its
   * time-out, or the client left): a hash not yet started is then never computed.
   */
  readonly signal?: AbortSignalLike;
}

/** Login attempts are limited per client and, at a higher ceiling, per email (password-attempts.ts). */
export interface LoginDependencies extends AccountPorts, PasswordAttemptPolicies {
  readonly tokens: TokenService;
}

/**
 * Email + password → a new session and its token pair. Unknown email and wrong password are the
 * same `invalid_credentials` and cost the same: an unknown email is checked against a dummy hash
 * made at the current cost, and a successful login re-hashes a password stored at another cost, so
 * that accounts converge on the cost the dummy has. A disabled account is told so only after a
 * correct password. When the hasher is too busy the login fails `service_unavailable` (retry later).
 */
export class Login {
  private dummyHash: Promise<string> | null = null;

  constructor(private readonly deps: LoginDependencies) {}

  async execute(input: LoginInput): Promise<TokenPair> {
    const issues = new Issues();
    const email = givenEmail(input.email, issues);
    const password = givenPassword(input.password, 'password', issues);
    issues.throwIfAny();

    await countPasswordAttempt(this.deps.limiter, this.deps, { email, client: input.client }, 'Too many login attempts; retry later.');

    const { customers, hasher } = this.deps;
    const options: HashOptions = { client: input.client, ...(input.signal === undefined ? {} : { signal: input.signal }) };
    // A string that is not a plain address is an unknown email: the same answer, after the same hash.
    const address = emailOf(email);
    const customer = address === undefined ? null : await customers.findByEmail(address);
    const valid = customer === null
      ? (await hasher.verify(await this.dummy(), password, options)) && false
      : await hasher.verify(customer.passwordHash, password, options);
    if (customer === null || !valid) throw new DomainError('invalid_credentials', 'The email or password is wrong.');
    if (customer.disabled) throw new DomainError('account_disabled', 'This account is disabled.');
    if (hasher.needsRehash(customer.passwordHash)) await this.rehash(customer.customerId, customer.passwordHash, password, options);

    return openSession(this.deps, customer.customerId);
  }

  /** Computes the dummy hash ahead of the first login, so that attempt is not slower. */
  async warmUp(): Promise<void> {
    await this.dummy();
  }

  /**
   * Stores the password hashed at the current cost in place of `stored`. Best effort: the login
   * is valid either way, so a busy hasher or a failed write leaves the old hash for the next
   * login to replace; and a hash changed meanwhile (compare-and-set) is never overwritten.
   */
  private async rehash(customerId: string, stored: string, password: string, options: HashOptions): Promise<void> {
    try {
      await this.deps.customers.updatePasswordHash(customerId, stored, await this.deps.hasher.hash(password, options));
    } catch {
      // Nothing to tell the customer; the next successful login tries again.
    }
  }

  private dummy(): Promise<string> {
    if (this.dummyHash === null) {
      const made = this.deps.hasher.hash('storefront-dummy-password-for-timing');
      this.dummyHash = made;
      // A hasher too busy to make it (a flood before the warm-up) must not leave a failure cached
      // for every later unknown email: forget it, the next attempt makes it again.
      made.catch(() => {
        if (this.dummyHash === made) this.dummyHash = null;
      });
    }
    return this.dummyHash;
  }
}
