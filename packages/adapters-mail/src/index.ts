/**
 * @storefront/adapters-mail: the Mailer port on SMTP (nodemailer: pooled, retries with backoff,
 * bounded), and on the log for memory mode. `createMailer` picks one from the settings.
 */
export { createMailer, type MailerSettings, type Mailers } from './create-mailer.js';
export { SmtpMailer, DEFAULT_SMTP_TIMEOUTS, type SmtpMailerOptions, type SmtpTimeouts, type MailRetryEvent } from './smtp-mailer.js';
export { LogMailer, type MailLogSink } from './log-mailer.js';
export { MailDeliveryError, isTransientFailure } from './delivery-failure.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
export { parseSmtpUrl, type SmtpUrl } from './smtp-url.js';
