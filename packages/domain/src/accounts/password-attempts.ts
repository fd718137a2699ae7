/**
 * How guesses at an account's password are limited, wherever a password is checked (a login, the
 * password asked again by an erasure). Two counts, both before the hash: per client
 * (`login:client:<address>`, the login policy) and per email (`login:email:<email>`, a ceiling well
 * above it, against guesses from many addresses), so that no single address can lock a customer out
 * (docs/security.md, "Login limits without lock-outs").
 */
import type { RateLimiter, RateLimitPolicy } from '../rate-limits/rate-limiter.js';
import { refuseWhenLimited } from '../rate-limits/rate-limits.js';

/** The per-email ceiling, in multiples of the per-client limit, when none is configured. */
export const LOGIN_EMAIL_CEILING_FACTOR = 10;

export interface PasswordAttemptPolicies {
  /** Attempts per client, whatever the email. */
  readonly loginPolicy: RateLimitPolicy;
  /** Attempts per email, whatever the client. */
  readonly loginEmailPolicy: RateLimitPolicy;
}

/** The ceiling per email that goes with a per-client login policy: same window, ten times the count. */
export function defaultLoginEmailPolicy(loginPolicy: RateLimitPolicy): RateLimitPolicy {
  return { name: `${loginPolicy.name}-email`, limit: loginPolicy.limit * LOGIN_EMAIL_CEILING_FACTOR, windowSeconds: loginPolicy.windowSeconds };
}

/** Counts one password attempt at `email` from `client`, or refuses `rate_limited` (nothing hashed). */
export async function countPasswordAttempt(
  limiter: RateLimiter,
  policies: PasswordAttemptPolicies,
  attempt: { readonly email: string; readonly client: string },
  message: string,
): Promise<void> {
  await refuseWhenLimited(limiter, `login:client:${attempt.client}`, policies.loginPolicy, message);
  await refuseWhenLimited(limiter, `login:email:${attempt.email}`, policies.loginEmailPolicy, message);
}
