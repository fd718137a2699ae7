/**
 * Standard Webhooks 1.0 signing: `v1,` + base64 HMAC-SHA256 over `id.timestamp.body`, keyed with
 * the bytes of the secret (the base64 after `whsec_`), one signature per secret still signing,
 * space-separated (a receiver accepts any of them: that is how a rotation overlaps).
 */
import { createHmac } from 'node:crypto';
import type { WebhookSecret } from '@storefront/domain/adapter-kit';

const PREFIX = 'whsec_';

/** The key bytes of a secret; decoded once per secret (a few endpoints, each with one or two). */
const keys = new Map<string, Buffer>();
const MAX_KEYS = 1024;

function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (key === undefined) {
    key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
    if (keys.size >= MAX_KEYS) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

/** The secrets that sign at `now`: the current one, and a previous one until its `expiresAt`. */
export function signingSecrets(secrets: readonly WebhookSecret[], now: Date): string[] {
  return secrets.filter((s) => s.expiresAt === undefined || s.expiresAt.getTime() > now.getTime()).map((s) => s.secret);
}

/** The `webhook-signature` header value. */
export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  const signed = `${id}.${timestampSeconds}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(signed).digest('base64')}`).join(' ');
}
