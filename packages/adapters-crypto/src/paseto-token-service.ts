/**
 * TokenService on PASETO v4.public (Ed25519). The footer names the signing key (`{"kid": …}`); the
 * service holds one signing key and any number of verification keys, so a key can be rotated by
 * signing with a new one while the old one still verifies until its tokens have expired.
 */
import { randomBytes } from 'node:crypto';
import { InspectFooter, PasetoError, PublicProtocol } from 'paseto';
import { SignFactory, VerifyFactory, type PublicKey } from 'paseto/v4/public';
import { DomainError, type Clock, type TokenService } from '@storefront/domain';
import { systemClock, type AccessClaims } from '@storefront/domain/adapter-kit';
import { importSigningKey, importVerificationKey, type SigningKey } from './paseto-keys.js';

export interface PasetoTokenServiceOptions {
  /** More keys that verify but never sign (PASERK k4.public or k4.secret), e.g. the previous signing key. */
  readonly verificationKeys?: readonly string[];
  readonly clock?: Clock;
  /** Allowed clock skew between instances, seconds. Default 5, at most 60. */
  readonly clockToleranceSeconds?: number;
}

const v4 = new PublicProtocol(SignFactory, VerifyFactory);
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Far above any token we issue; refuses oversized input before any parsing. */
const MAX_TOKEN_LENGTH = 4096;
const MAX_FOOTER_BYTES = 256;
const MAX_TTL_SECONDS = 24 * 3600;

interface Keyring {
  readonly signing: SigningKey;
  readonly verifying: ReadonlyMap<string, PublicKey>;
}

export class PasetoTokenService implements TokenService {
  private readonly keyring: Promise<Keyring>;
  private readonly clock: Clock;
  private readonly clockTolerance: number;

  /**
   * @param signingKey PASERK `k4.secret.…` of the key that signs new tokens (it also verifies them).
   * Keys are imported in the background; `ready()` says whether they were valid.
   */
  constructor(signingKey: string, options: PasetoTokenServiceOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.clockTolerance = options.clockToleranceSeconds ?? 5;
    if (!(this.clockTolerance >= 0 && this.clockTolerance <= 60)) {
      throw new RangeError(`clockToleranceSeconds must be from 0 to 60, got ${this.clockTolerance}`);
    }
    this.keyring = loadKeyring(signingKey, options.verificationKeys ?? []);
    // Failures are reported by ready(), issue() and verify(); this only avoids an unhandled rejection.
    this.keyring.catch(() => undefined);
  }

  /** Resolves once the keys are imported; rejects when one of them is not a valid PASERK. */
  async ready(): Promise<void> {
    await this.keyring;
  }

  /** The id written in the footer of the tokens issued now. */
  async currentKeyId(): Promise<string> {
    return (await this.keyring).signing.kid;
  }

  /** The PASERK k4.public of the signing key, to hand to other verifiers. */
  async publicKey(): Promise<string> {
    return (await this.keyring).signing.publicPaserk;
  }

  async issue(claims: { readonly sub: string; readonly sid: string }, ttlSeconds: number): Promise<string> {
    if (typeof claims.sub !== 'string' || claims.sub === '' || typeof claims.sid !== 'string' || claims.sid === '') {
      throw new TypeError('sub and sid must be non-empty strings');
    }
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_TTL_SECONDS) {
      throw new RangeError(`ttlSeconds must be an integer from 1 to ${MAX_TTL_SECONDS}, got ${ttlSeconds}`);
    }
    const { signing } = await this.keyring;
    return v4.Sign(
      signing.secretKey,
      // jti: Ed25519 signatures are deterministic and iat/exp have whole seconds, so without it two
      // tokens issued in the same second for one session would be the same string.
      { sub: claims.sub, sid: claims.sid, jti: randomBytes(16).toString('base64url') },
      { expiresIn: ttlSeconds, now: this.clock.now(), footer: encoder.encode(JSON.stringify({ kid: signing.kid })) },
    );
  }

  async verify(token: string): Promise<AccessClaims> {
    const { verifying } = await this.keyring;
    const kid = keyIdOfToken(token);
    const key = kid === null ? undefined : verifying.get(kid);
    if (key === undefined) throw invalidToken();

    let claims: Record<string, unknown>;
    try {
      ({ claims } = await v4.Verify(key, token, {
        now: this.clock.now(),
        clockTolerance: this.clockTolerance,
        // A missing exp is reported as invalid below; only a present, past exp means "expired".
        allowNonExpiring: true,
      }));
    } catch (error) {
      if (error instanceof PasetoError && error.code === 'ERR_PASETO_CLAIM_VALIDATION' && (error as { claim?: string }).claim === 'exp') {
        throw new DomainError('token_expired', 'The access token has expired.', { cause: error });
      }
      throw invalidToken(error);
    }

    const { sub, sid, exp } = claims;
    const expMs = typeof exp === 'string' ? Date.parse(exp) : Number.NaN;
    if (typeof sub !== 'string' || sub === '' || typeof sid !== 'string' || sid === '' || Number.isNaN(expMs)) {
      throw invalidToken();
    }
    return { sub, sid, exp: Math.floor(expMs / 1000) };
  }
}

async function loadKeyring(signingKey: string, verificationKeys: readonly string[]): Promise<Keyring> {
  const [signing, ...others] = await Promise.all([
    importSigningKey(signingKey),
    ...verificationKeys.map((paserk) => importVerificationKey(paserk)),
  ]);
  const verifying = new Map<string, PublicKey>();
  for (const { kid, publicKey } of others) verifying.set(kid, publicKey);
  verifying.set(signing.kid, signing.publicKey);
  return { signing, verifying };
}

/** The kid of the (still unauthenticated) footer, or null when the token has no usable one. */
function keyIdOfToken(token: unknown): string | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !token.startsWith('v4.public.')) return null;
  try {
    const footer = InspectFooter(token);
    if (footer.length === 0 || footer.length > MAX_FOOTER_BYTES) return null;
    const parsed: unknown = JSON.parse(decoder.decode(footer));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    const kid = (parsed as Record<string, unknown>)['kid'];
    return typeof kid === 'string' ? kid : null;
  } catch {
    return null;
  }
}

function invalidToken(cause?: unknown): DomainError {
  return new DomainError('invalid_token', 'The access token is invalid.', cause === undefined ? {} : { cause });
}
