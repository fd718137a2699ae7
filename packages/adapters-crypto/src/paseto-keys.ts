/**
 * PASETO v4.public key material: PASERK strings in, library keys out, and the key id written in
 * each token's footer so that a verifier holding several keys knows which one to use.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { PublicProtocol } from 'paseto';
import {
  ExportPublicKeyFactory,
  GetPublicKeyFactory,
  ImportPublicKeyFactory,
  ImportSecretKeyFactory,
  type PublicKey,
  type SecretKey,
} from 'paseto/v4/public';

export type SecretPaserk = `k4.secret.${string}`;
export type PublicPaserk = `k4.public.${string}`;

const v4Keys = new PublicProtocol(ImportSecretKeyFactory, ImportPublicKeyFactory, GetPublicKeyFactory, ExportPublicKeyFactory);

/** A k4.secret PASERK: `k4.secret.` + base64url of the 64-byte Ed25519 secret key (seed ‖ public key). */
const SECRET_PASERK = /^k4\.secret\.[A-Za-z0-9_-]{86}$/;
const PUBLIC_PASERK = /^k4\.public\.[A-Za-z0-9_-]{43}$/;

export function isSecretPaserk(value: string): value is SecretPaserk {
  return SECRET_PASERK.test(value);
}

export function isPublicPaserk(value: string): value is PublicPaserk {
  return PUBLIC_PASERK.test(value);
}

/**
 * A new Ed25519 signing key as a PASERK k4.secret string. Synchronous (node:crypto) so that an
 * ephemeral key can be made wherever a key is needed; the result imports like any configured key.
 */
export function generateSigningKey(): SecretPaserk {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  if (typeof jwk.d !== 'string' || typeof jwk.x !== 'string') throw new Error('Ed25519 key export failed');
  const material = Buffer.concat([Buffer.from(jwk.d, 'base64url'), Buffer.from(jwk.x, 'base64url')]);
  return `k4.secret.${material.toString('base64url')}`;
}

/**
 * The key id of a verification key: `sf1.` + 22 base64url characters of SHA-256 over its k4.public
 * PASERK. (PASERK's own k4.pid needs BLAKE2b-264, which neither node:crypto nor the paseto package
 * provides; this id plays the same role and never reveals key material.)
 */
export function keyIdOf(publicPaserk: string): string {
  return `sf1.${createHash('sha256').update(`storefront.kid.${publicPaserk}`).digest().subarray(0, 16).toString('base64url')}`;
}

export interface SigningKey {
  readonly kid: string;
  readonly secretKey: SecretKey;
  readonly publicKey: PublicKey;
  readonly publicPaserk: PublicPaserk;
}

export interface VerificationKey {
  readonly kid: string;
  readonly publicKey: PublicKey;
}

export async function importSigningKey(paserk: string): Promise<SigningKey> {
  if (!isSecretPaserk(paserk)) throw new TypeError('The token signing key must be a PASERK k4.secret string.');
  const secretKey = await v4Keys.ImportSecretKey(paserk);
  const publicKey = await v4Keys.GetPublicKey(secretKey);
  const publicPaserk = await v4Keys.ExportPublicKey(publicKey);
  return { kid: keyIdOf(publicPaserk), secretKey, publicKey, publicPaserk };
}

/**
 * The k4.public PASERK of a k4.secret one: what to hand to instances that must verify, but never
 * sign, tokens of that key (the first step of a key rotation). Derived as the token service derives
 * it, so the key id matches the one in the tokens the secret key signs.
 */
export async function publicKeyOf(secretPaserk: string): Promise<PublicPaserk> {
  return (await importSigningKey(secretPaserk)).publicPaserk;
}

/** A key that verifies only: a k4.public PASERK, or a k4.secret one (its public half is used). */
export async function importVerificationKey(paserk: string): Promise<VerificationKey> {
  if (isSecretPaserk(paserk)) {
    const { kid, publicKey } = await importSigningKey(paserk);
    return { kid, publicKey };
  }
  if (!isPublicPaserk(paserk)) throw new TypeError('A token verification key must be a PASERK k4.public or k4.secret string.');
  const publicKey = await v4Keys.ImportPublicKey(paserk);
  return { kid: keyIdOf(paserk), publicKey };
}
