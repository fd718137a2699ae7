/**
 * @storefront/adapters-crypto: password hashing with scrypt (bounded concurrency and waiting, off
 * the event loop) and access tokens as PASETO v4.public (Ed25519) with a key id in the footer,
 * with a cache of verified tokens that any TokenService can be wrapped in.
 */
export { createCryptoAdapters, type CryptoAdapters, type CryptoAdaptersOptions } from './create-crypto-adapters.js';
export {
  ScryptPasswordHasher,
  DEFAULT_SCRYPT_CONCURRENCY,
  DEFAULT_SCRYPT_COST,
  DEFAULT_SCRYPT_MAX_WAIT_MS,
  DEFAULT_SCRYPT_MAX_QUEUE,
  type ScryptCost,
  type ScryptPasswordHasherOptions,
} from './scrypt-password-hasher.js';
export { PasetoTokenService, type PasetoTokenServiceOptions } from './paseto-token-service.js';
export { CachingTokenService, DEFAULT_VERIFIED_TOKEN_CACHE_SIZE, type VerifiedTokenCacheOptions } from './verified-token-cache.js';
export {
  generateSigningKey,
  isPublicPaserk,
  isSecretPaserk,
  keyIdOf,
  publicKeyOf,
  type PublicPaserk,
  type SecretPaserk,
} from './paseto-keys.js';
export { Semaphore, SemaphoreRefusedError, type SemaphoreOptions, type SemaphoreRefusal, type SemaphoreStats } from './semaphore.js';
export { sha256Hex } from './sha256.js';
