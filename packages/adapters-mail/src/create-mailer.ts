/**
 * The one factory of this package: SMTP when `SMTP_URL` is set, else the log (memory mode). The
 * settings are checked here, at startup, so a bad `SMTP_URL` stops the process with its name
 * rather than failing the first password reset in the background.
 */
import type { Mailer } from '@storefront/domain';
import { LogMailer, type MailLogSink } from './log-mailer.js';
import { SmtpMailer, type SmtpMailerOptions } from './smtp-mailer.js';

export interface MailerSettings extends Omit<SmtpMailerOptions, 'url' | 'from'> {
  /** `SMTP_URL`; unset or blank: messages go to `log`. */
  readonly smtpUrl?: string | undefined;
  /** `MAIL_FROM`; required with `smtpUrl`. */
  readonly from?: string | undefined;
  /** Where memory mode writes each message (the app's logger). */
  readonly log: MailLogSink;
}

export interface Mailers {
  readonly mailer: Mailer;
  /** For the startup log line, without the password: `smtp://user:***@mail:587 (pooled, 5 attempts)` or `log`. */
  readonly describe: string;
  /** SMTP only: connects and authenticates once (a startup check; not cheap enough for every status probe). */
  readonly verify?: () => Promise<void>;
  /** Stops retries, closes connections; pending sends reject. */
  close(): Promise<void>;
}

export function createMailer(settings: MailerSettings): Mailers {
  const { smtpUrl, from, log, ...options } = settings;
  if (smtpUrl === undefined || smtpUrl.trim() === '') {
    return { mailer: new LogMailer(log), describe: 'log (no SMTP_URL: each email is written to the log)', close: async () => {} };
  }
  if (from === undefined || from.trim() === '') {
    throw new Error('MAIL_FROM is required with SMTP_URL: the sender address, e.g. "Storefront <no-reply@shop.example>"');
  }
  const mailer = new SmtpMailer({ ...options, url: smtpUrl.trim(), from });
  return {
    mailer,
    describe: `${mailer.redactedUrl} (pooled, ${mailer.attempts} attempts per message)`,
    verify: () => mailer.verify(),
    close: () => mailer.close(),
  };
}
