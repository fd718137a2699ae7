/**
 * The Mailer port for memory mode (no `SMTP_URL`): each message goes to the log, whole, so the
 * demo can read the reset link from it. Never for production: the link is a credential.
 */
import type { Mailer } from '@storefront/domain';
import type { MailMessage } from '@storefront/domain/adapter-kit';

export type MailLogSink = (entry: MailMessage) => void;

export class LogMailer implements Mailer {
  constructor(private readonly sink: MailLogSink) {}

  async send(message: MailMessage): Promise<void> {
    this.sink({ to: message.to, subject: message.subject, text: message.text });
  }
}
