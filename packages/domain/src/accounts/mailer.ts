/** One email: plain text (every client reads it), to one address. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/**
 * Port: sends email (SMTP in production, the log in memory mode). `send` resolves once the message
 * is delivered to the mail server (or written, for a log) and rejects only when the adapter has
 * given up: adapters retry transient failures themselves, with a bounded number of attempts. The
 * use cases never await it on a request's path (see RequestPasswordReset), so a slow or failing
 * mail server never changes an answer.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
