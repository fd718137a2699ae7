import type { AccountPorts } from './account-ports.js';
import { DomainError } from '../shared/errors.js';
import { randomToken, sha256Hex } from '../shared/ids.js';
import { emailOf, givenEmail, type Email } from './email.js';
import { newPassword } from './password.js';
import { Issues } from '../shared/validation.js';
import type { Mailer, MailMessage } from './mailer.js';
import type { PasswordResetTokenStore } from './password-reset-tokens.js';
import type { RateLimitPolicy } from '../rate-limits/rate-limiter.js';
import type { AbortSignalLike } from '../shared/security.js';
import type { BackgroundTasks } from '../shared/background-tasks.js';
import { refuseWhenLimited } from '../rate-limits/rate-limits.js';

/** A reset token is good for 30 minutes, once. */
export const PASSWORD_RESET_TTL_SECONDS = 30 * 60;
/** 43 characters of base 32 (215 random bits): URL-safe as they are. */
const TOKEN_LENGTH = 43;

/** What the reset email says: the operator's store name and the page that takes the token. */
export interface PasswordResetMail {
  readonly storeName: string;
  /** The token is appended to it, e.g. `https://shop.example/reset?token=`. */
  readonly linkBase: string;
}

/** The reset email: plain text, the link on a line of its own. */
export function passwordResetMessage(to: string, link: string, mail: PasswordResetMail): MailMessage {
  const minutes = PASSWORD_RESET_TTL_SECONDS / 60;
  return {
    to,
    subject: `Reset your ${mail.storeName} password`,
    text: [
      `Someone (we hope you) asked to reset the password of your ${mail.storeName} account.`,
      '',
      `To choose a new password, open this link within ${minutes} minutes:`,
      '',
      link,
      '',
      'The link works once. If you did not ask for it, ignore this email: your password stays as it is.',
      '',
    ].join('\n'),
  };
}

export interface PasswordResetDependencies extends AccountPorts {
  readonly resetTokens: PasswordResetTokenStore;
  /** Absent: no email can be sent, and every reset request reports so through `background`. */
  readonly mailer: Mailer | undefined;
  readonly mail: PasswordResetMail;
  /** Reset requests allowed per client and, separately, per email. */
  readonly resetPolicy: RateLimitPolicy;
  readonly background: BackgroundTasks;
}

export interface RequestPasswordResetInput {
  readonly email: unknown;
  /** Who is asking, for the per-client limit (an IP address over HTTP). */
  readonly client: string;
}

/**
 * Asks for a reset email. The answer is the same, after the same work, whatever the email: the
 * caller learns nothing about which accounts exist. The request's own path only checks the input
 * and the limits (per client and per email, like logins); the look-up, the token and the email run
 * as a background task, so neither a store's nor a mail server's time ever shows in the answer.
 * An active account gets one email with a single-use token valid 30 minutes, stored hashed; an
 * unknown or disabled one gets nothing.
 */
export class RequestPasswordReset {
  constructor(private readonly deps: PasswordResetDependencies) {}

  async execute(input: RequestPasswordResetInput): Promise<void> {
    const issues = new Issues();
    const email = givenEmail(input.email, issues);
    issues.throwIfAny();
    const { limiter, resetPolicy } = this.deps;
    const message = 'Too many password reset requests; retry later.';
    await refuseWhenLimited(limiter, `reset:client:${input.client}`, resetPolicy, message);
    await refuseWhenLimited(limiter, `reset:email:${email}`, resetPolicy, message);
    // A string that is not a plain address names no account that can be mailed: an account made
    // before the address rule with such an email (`z2<victim@evil.test>`) never gets a reset email,
    // since only a plain address is looked up. The answer is the same either way.
    const address = emailOf(email);
    if (address !== undefined) this.deps.background.run('password reset email', () => this.sendReset(address));
  }

  private async sendReset(email: Email): Promise<void> {
    const { customers, resetTokens, mailer, clock, mail } = this.deps;
    const customer = await customers.findByEmail(email);
    if (customer === null || customer.disabled) return;
    if (mailer === undefined) throw new Error('no Mailer is configured: the password reset email cannot be sent');
    const token = randomToken(TOKEN_LENGTH);
    const now = clock.now();
    await resetTokens.save({
      tokenHash: await sha256Hex(token),
      customerId: customer.customerId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + PASSWORD_RESET_TTL_SECONDS * 1000),
    });
    await mailer.send(passwordResetMessage(customer.email, `${mail.linkBase}${token}`, mail));
  }
}

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
