import type { AccountPorts } from './account-ports.js';
import { DomainError, isDomainError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Customer } from './customer.js';
import { displayNameOf, type DisplayName } from './display-name.js';
import { EMAIL_RULE, emailOf, type Email } from './email.js';
import { newPassword, type Password } from './password.js';
import { Issues } from '../shared/validation.js';
import type { RateLimitPolicy } from '../rate-limits/rate-limiter.js';
import type { AbortSignalLike, TokenService } from '../shared/security.js';
import type { TokenPair } from './session-tokens.js';
import { openSession } from './session-tokens.js';
import { refuseWhenLimited } from '../rate-limits/rate-limits.js';

/** A sign-up as received: checked here, so `unknown` is fine. */
export interface SignUpInput {
  readonly email: unknown;
  readonly password: unknown;
  readonly name: unknown;
  /** Who is asking, for the per-client sign-up limit (an IP address over HTTP). */
  readonly client: string;
  /** Fires when nobody waits for the answer any more: a hash not yet started is then never computed. */
  readonly signal?: AbortSignalLike;
}

export interface SignUpDependencies extends AccountPorts {
  readonly tokens: TokenService;
  /** Sign-ups allowed per client. */
  readonly registerPolicy: RateLimitPolicy;
}

/**
 * A customer signs up: a new `customer` account, logged in at once (a new session and its token
 * pair, as a login gives). A taken email is `email_taken`: a sign-up cannot hide it, so the
 * per-client limit (checked before the email is looked up) is what stops harvesting. The password
 * is hashed by the same bounded hasher as logins (`service_unavailable` when it is too busy).
 */
export class SignUp {
  constructor(private readonly deps: SignUpDependencies) {}

  async execute(input: SignUpInput): Promise<TokenPair> {
    const { email, name, password } = signUpFields(input);
    const { customers, hasher, limiter, registerPolicy } = this.deps;
    await refuseWhenLimited(limiter, `register:client:${input.client}`, registerPolicy, 'Too many sign-ups from this address; retry later.');
    if ((await customers.findByEmail(email)) !== null) throw emailTaken();
    const customer: Customer = {
      customerId: newId('cus'),
      email,
      name,
      passwordHash: await hasher.hash(password, { client: input.client, ...(input.signal === undefined ? {} : { signal: input.signal }) }),
      disabled: false,
      createdAt: this.deps.clock.now(),
      role: 'customer',
    };
    try {
      // The store's unique email decides between sign-ups racing for one address.
      await customers.create(customer);
    } catch (error) {
      throw isDomainError(error, 'conflict') ? emailTaken() : error;
    }
    return openSession(this.deps, customer.customerId);
  }
}

function signUpFields(input: SignUpInput): { email: Email; name: DisplayName; password: Password } {
  const issues = new Issues();
  const email = emailOf(input.email);
  if (email === undefined) issues.add('email', `must be an email address of at most ${EMAIL_RULE.maxLength} characters`);
  const name = displayNameOf(input.name, 'name', issues);
  const password = newPassword(input.password, 'password', issues);
  issues.throwIfAny();
  return { email: email!, name, password };
}

function emailTaken(): DomainError {
  return new DomainError('email_taken', 'An account with this email already exists.');
}
