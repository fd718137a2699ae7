/** The one factory of this package: the password hasher and the token service, from options. */
import { generateSigningKey } from './paseto-keys.js';
import { PasetoTokenService, type PasetoTokenServiceOptions } from './paseto-token-service.js';
import { ScryptPasswordHasher, type ScryptPasswordHasherOptions } from './scrypt-password-hasher.js';

export interface CryptoAdaptersOptions extends PasetoTokenServiceOptions {
  /** PASERK k4.secret that signs access tokens. Default: a fresh ephemeral key (tokens die with the process). */
  readonly signingKey?: string;
  /** scrypt cost and bounds. Default logN 17, r 8, p 1; 4 at once, 64 waiting, for at most 1 s. */
  readonly scrypt?: ScryptPasswordHasherOptions;
}

export interface CryptoAdapters {
  readonly hasher: ScryptPasswordHasher;
  readonly tokens: PasetoTokenService;
}

export function createCryptoAdapters(options: CryptoAdaptersOptions = {}): CryptoAdapters {
  const { signingKey, scrypt, ...tokenOptions } = options;
  return {
    hasher: new ScryptPasswordHasher(scrypt),
    tokens: new PasetoTokenService(signingKey ?? generateSigningKey(), tokenOptions),
  };
}
