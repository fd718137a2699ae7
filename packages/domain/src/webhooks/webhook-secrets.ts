/**
 * Signing secrets (Standard Webhooks): `whsec_` + base64 of 32 random bytes. A rotation keeps the
 * previous secret signing for WEBHOOK_SECRET_OVERLAP_MS, so a receiver can switch without losing
 * a delivery; an expired secret no longer signs.
 */
import { randomBytes } from '../shared/ids.js';
import { WEBHOOK_LIMITS, WEBHOOK_SECRET_OVERLAP_MS, type WebhookEndpoint, type WebhookSecret } from './model.js';

const SECRET_BYTES = 32;
const runtime = globalThis as unknown as { btoa(data: string): string };

/** A new secret's text. */
export function newSecretText(): string {
  let binary = '';
  for (const byte of randomBytes(SECRET_BYTES)) binary += String.fromCharCode(byte);
  return `whsec_${runtime.btoa(binary)}`;
}

/**
 * The secrets after a rotation at `now`: the new one first, the previous current one signing until
 * now + overlap, older ones kept until their own expiry, at most WEBHOOK_LIMITS.secretsMax in all.
 */
export function rotatedSecrets(secrets: readonly WebhookSecret[], secret: string, now: Date): WebhookSecret[] {
  const expiresAt = new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_MS);
  const previous = secrets.map((old, index) => (index === 0 ? { ...old, expiresAt } : old));
  return [{ secret, createdAt: now }, ...signing(previous, now)].slice(0, WEBHOOK_LIMITS.secretsMax);
}

/** The endpoint with only the secrets that still sign at `now` (what the sender is given). */
export function withSigningSecrets(endpoint: WebhookEndpoint, now: Date): WebhookEndpoint {
  const secrets = signing(endpoint.secrets, now);
  return secrets.length === endpoint.secrets.length ? endpoint : { ...endpoint, secrets };
}

function signing(secrets: readonly WebhookSecret[], now: Date): WebhookSecret[] {
  return secrets.filter((secret) => secret.expiresAt === undefined || secret.expiresAt.getTime() > now.getTime());
}
