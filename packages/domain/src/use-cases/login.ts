import { DomainError } from '../errors.js';
import { newId } from '../ids.js';
import { normalizeEmail } from '../model/customer.js';
import { Issues } from '../model/validation.js';
import type { CustomerRepository } from '../ports/customer-repository.js';
import type { RateLimiter, RateLimitPolicy } from '../ports/rate-limiter.js';
import type { Clock, PasswordHasher, TokenService } from '../ports/security.js';
import type { SessionStore } from '../ports/session-store.js';
import { toWholeSeconds } from '../rate-limit/sliding-window.js';
import type { TokenPair } from '../session-tokens.js';
import { issuePair, REFRESH_TOKEN_TTL_SECONDS } from '../session-tokens.js';

/** Credentials as received: checked here, so `unknown` is fine. */
export interface LoginInput {
  readonly email: unknown;
  readonly password: unknown;
  /** Who is asking, for the per-client login limit (an IP address over HTTP). */
  readonly client: string;
}

export interface LoginDependencies {
  readonly customers: CustomerRepository;
  readonly sessions: SessionStore;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly limiter: RateLimiter;
  readonly clock: Clock;
  /** Login attempts allowed per client and, separately, per email. */
  readonly loginPolicy: RateLimitPolicy;
}

const MAX_EMAIL = 254;
const MAX_PASSWORD = 1024;

/**
 * Email + password → a new session and its token pair. Unknown email and wrong password are the
 * same `invalid_credentials` and cost the same: an unknown email is checked against a dummy hash of
 * the same cost. A disabled account is told so only after a correct password.
 */
export class Login {
  private dummyHash: Promise<string> | null = null;

  constructor(private readonly deps: LoginDependencies) {}

  async execute(input: LoginInput): Promise<TokenPair> {
    const issues = new Issues();
    if (typeof input.email !== 'string' || input.email.trim() === '' || input.email.length > MAX_EMAIL) {
      issues.add('email', `is required: a string of at most ${MAX_EMAIL} characters`);
    }
    if (typeof input.password !== 'string' || input.password.length === 0 || input.password.length > MAX_PASSWORD) {
      issues.add('password', `is required: a string of 1 to ${MAX_PASSWORD} characters`);
    }
    issues.throwIfAny();
    const email = normalizeEmail(input.email as string);
    const password = input.password as string;

    await this.consume(`login:client:${input.client}`);
    await this.consume(`login:email:${email}`);

    const { customers, hasher } = this.deps;
    const customer = await customers.findByEmail(email);
    const valid = customer === null
      ? (await hasher.verify(await this.dummy(), password)) && false
      : await hasher.verify(customer.passwordHash, password);
    if (customer === null || !valid) throw new DomainError('invalid_credentials', 'The email or password is wrong.');
    if (customer.disabled) throw new DomainError('account_disabled', 'This account is disabled.');

    const now = this.deps.clock.now();
    const sessionId = newId('ses');
    const issued = await issuePair(this.deps.tokens, customer.customerId, sessionId);
    await this.deps.sessions.create({
      sessionId,
      customerId: customer.customerId,
      refreshTokenHash: issued.refreshTokenHash,
      previousTokenHashes: [],
      createdAt: now,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
      revokedAt: null,
    });
    return issued.pair;
  }

  /** Computes the dummy hash ahead of the first login, so that attempt is not slower. */
  async warmUp(): Promise<void> {
    await this.dummy();
  }

  private async consume(key: string): Promise<void> {
    const decision = await this.deps.limiter.consume(key, this.deps.loginPolicy);
    if (!decision.allowed) {
      throw new DomainError('rate_limited', 'Too many login attempts; retry later.', {
        retryAfterSeconds: Math.max(1, toWholeSeconds(decision.retryAfterMs)),
      });
    }
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= this.deps.hasher.hash('storefront-dummy-password-for-timing');
    return this.dummyHash;
  }
}
