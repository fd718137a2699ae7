/**
 * The `SMTP_URL` setting, checked before anything connects: the scheme says how TLS starts, the
 * password must never reach a log, so every form of this URL shown to a human is the redacted one.
 */

export interface SmtpUrl {
  /** The URL as given: handed to nodemailer, never logged. */
  readonly href: string;
  /** `smtp://user:***@mail:587`: the form for logs and errors. */
  readonly redacted: string;
  /** The password as written in the URL and percent-decoded, to scrub from any text we emit. */
  readonly secrets: readonly string[];
  /**
   * The server is on this machine (`localhost`, `127.0.0.0/8`, `::1`): the mail never crosses a
   * network, so a STARTTLS certificate there is not checked (a local relay or test server offers
   * a self-signed, often expired, one, and checking it would only stop every message).
   */
  readonly loopback: boolean;
}

const SCHEMES = new Set(['smtp:', 'smtps:']);

/** Parses `SMTP_URL`; a bad value throws an Error that names the setting and never echoes the password. */
export function parseSmtpUrl(raw: string): SmtpUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // The raw value may hold a password: it is not repeated here.
    throw new Error('SMTP_URL is not a valid URL: expected smtp://user:password@host:587 or smtps://user:password@host:465');
  }
  const redacted = redact(url);
  if (!SCHEMES.has(url.protocol)) {
    throw new Error(`SMTP_URL must use smtp:// (STARTTLS when offered) or smtps:// (TLS from the start), got ${redacted}`);
  }
  if (url.hostname === '') throw new Error(`SMTP_URL has no host: ${redacted}`);
  const secrets = url.password === '' ? [] : [...new Set([url.password, safeDecode(url.password)])];
  return { href: raw, redacted, secrets, loopback: isLoopback(url.hostname) };
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** Scheme, user, host and port only: the password becomes `***`, the query (options) is dropped. */
function redact(url: URL): string {
  const user = url.username === '' ? '' : `${url.username}${url.password === '' ? '' : ':***'}@`;
  return `${url.protocol}//${user}${url.host}`;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
