/** Password resets: the token's life, the email it travels in, and what both use cases need. */
import type { BackgroundTasks } from '../shared/background-tasks.js';
import type { RateLimitPolicy } from '../rate-limits/rate-limiter.js';
import type { AccountPorts } from './account-ports.js';
import type { Mailer, MailMessage } from './mailer.js';
import type { PasswordResetTokenStore } from './password-reset-tokens.js';

/** A reset token is good for 30 minutes, once. */
export const PASSWORD_RESET_TTL_SECONDS = 30 * 60;
/** 43 characters of base 32 (215 random bits): URL-safe as they are. */
export const TOKEN_LENGTH = 43;

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
