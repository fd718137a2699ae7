/**
 * What a failed SMTP attempt means: worth another try (the server or the network is having a bad
 * moment) or final (the server refused this message and would refuse it again). Also the one
 * place that turns a failure into text for a log, with the credentials and the recipient removed.
 */

/** The fields nodemailer sets on its errors (see `NodemailerError` in nodemailer's typings). */
interface SmtpErrorFields {
  readonly code?: unknown;
  readonly responseCode?: unknown;
  readonly permanent?: unknown;
  readonly message?: unknown;
}

/**
 * Failures with no SMTP reply that end a connection, not a message: nodemailer's own codes
 * (ECONNECTION: dropped, ETIMEDOUT: connect/greeting/idle timeout, ESOCKET: refused, reset..., EDNS)
 * and the Node.js ones they wrap. Anything else without a reply (EAUTH "missing credentials",
 * EENVELOPE "invalid recipient", ETLS, EMESSAGE...) is a configuration or message problem that
 * a retry repeats: final.
 */
const TRANSIENT_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * RFC 5321: a 4yz reply is transient, a 5yz reply permanent, except 503 (bad sequence of
 * commands: the session's state, not the message). nodemailer ≥ 10.2 says the same in `permanent`;
 * the reply code is read too, for errors that carry a code but not the flag.
 */
export function isTransientFailure(error: unknown): boolean {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as SmtpErrorFields;
  if (typeof fields.permanent === 'boolean') return !fields.permanent;
  if (typeof fields.responseCode === 'number') {
    const code = fields.responseCode;
    return !(code >= 500 && code < 600 && code !== 503);
  }
  return typeof fields.code === 'string' && TRANSIENT_CODES.has(fields.code);
}

/** Text to scrub out of a reason: each secret becomes `***`, the recipient `<recipient>`. */
export interface Scrub {
  readonly secrets: readonly string[];
  readonly recipient?: string;
}

const MAX_REASON_LENGTH = 300;

/**
 * One line that says why an attempt failed, e.g. `ESOCKET: connect ECONNREFUSED 127.0.0.1:25` or
 * `EENVELOPE 550: Recipient command failed: 550 mailbox unavailable`. Never the message text
 * (it holds a reset link), never a password, never the recipient's address (personal data that
 * outlives the account in logs).
 */
export function describeFailure(error: unknown, scrub: Scrub): string {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as SmtpErrorFields;
  const code = typeof fields.code === 'string' ? fields.code : 'ERROR';
  const reply = typeof fields.responseCode === 'number' ? ` ${fields.responseCode}` : '';
  const message = typeof fields.message === 'string' ? fields.message : String(error);
  return scrubText(`${code}${reply}: ${message}`, scrub).replace(/\s+/g, ' ').slice(0, MAX_REASON_LENGTH);
}

export function scrubText(text: string, { secrets, recipient }: Scrub): string {
  let scrubbed = text;
  // Longest first, so that a secret containing another one is replaced whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret !== '') scrubbed = scrubbed.split(secret).join('***');
  }
  if (recipient !== undefined && recipient !== '') scrubbed = scrubbed.split(recipient).join('<recipient>');
  return scrubbed;
}

/** Why `SmtpMailer.send` rejected: the adapter has given up on this message. */
export class MailDeliveryError extends Error {
  override readonly name = 'MailDeliveryError';

  constructor(
    message: string,
    /** Attempts made (0 when the message was refused before any). */
    readonly attempts: number,
    /**
     * `permanent`: the server refused it; `exhausted`: transient failures outlasted the retries;
     * `closed`: shut down; `overloaded`: too many messages pending, refused before any attempt.
     */
    readonly reason: 'permanent' | 'exhausted' | 'closed' | 'overloaded',
  ) {
    super(message);
  }
}
