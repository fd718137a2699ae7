/**
 * PASETO v4.public by hand (node:crypto Ed25519 and the PAE of the PASETO spec), so that the suite
 * can sign tokens with the key it configured the server with: expired ones, ones without `exp`...
 */
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

const HEADER = 'v4.public.';

export interface TestSigningKey {
  /** PASERK k4.secret, for TOKEN_SECRET_KEY. */
  readonly paserk: string;
  readonly privateKey: KeyObject;
}

export function newSigningKey(): TestSigningKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const material = Buffer.concat([Buffer.from(jwk.d!, 'base64url'), Buffer.from(jwk.x!, 'base64url')]);
  return { paserk: `k4.secret.${material.toString('base64url')}`, privateKey: createPrivateKey({ key: jwk, format: 'jwk' }) };
}

function le64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}

function pae(...pieces: Buffer[]): Buffer {
  return Buffer.concat([le64(pieces.length), ...pieces.flatMap((p) => [le64(p.length), p])]);
}

export interface DecodedToken {
  readonly claims: Record<string, unknown>;
  readonly footer: Buffer;
}

/** The claims and footer of a v4.public token (no verification). */
export function decodeToken(token: string): DecodedToken {
  if (!token.startsWith(HEADER)) throw new Error(`not a v4.public token: ${token.slice(0, 12)}`);
  const [payload, footer] = token.slice(HEADER.length).split('.');
  const bytes = Buffer.from(payload!, 'base64url');
  const message = bytes.subarray(0, bytes.length - 64);
  return { claims: JSON.parse(message.toString('utf8')) as Record<string, unknown>, footer: Buffer.from(footer ?? '', 'base64url') };
}

/** Signs `claims` with `key`, with the given footer. */
export function signToken(key: TestSigningKey, claims: Record<string, unknown>, footer: Buffer): string {
  const message = Buffer.from(JSON.stringify(claims), 'utf8');
  const signature = sign(null, pae(Buffer.from(HEADER), message, footer, Buffer.alloc(0)), key.privateKey);
  const body = Buffer.concat([message, signature]).toString('base64url');
  return footer.length > 0 ? `${HEADER}${body}.${footer.toString('base64url')}` : `${HEADER}${body}`;
}

/** A token like `token` (same footer), re-signed with `key` after `edit` changed its claims. */
export function resign(key: TestSigningKey, token: string, edit: (claims: Record<string, unknown>) => Record<string, unknown>): string {
  const { claims, footer } = decodeToken(token);
  return signToken(key, edit({ ...claims }), footer);
}
