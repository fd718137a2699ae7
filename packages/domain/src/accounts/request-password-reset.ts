import { randomToken, sha256Hex } from '../shared/ids.js';
import { Issues } from '../shared/validation.js';
import { refuseWhenLimited } from '../rate-limits/rate-limits.js';
import { emailOf, givenEmail, type Email } from './email.js';
import { PASSWORD_RESET_TTL_SECONDS, passwordResetMessage, TOKEN_LENGTH, type PasswordResetDependencies } from './password-reset.js';

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
