/**
 * Password hashing and access tokens from @storefront/adapters-crypto. Without TOKEN_SECRET_KEY
 * (memory database only) an ephemeral key is made, with a warning: tokens die with the process.
 * TOKEN_VERIFY_KEYS only verify, so a key listed everywhere before use and kept until its tokens
 * expire rotates without logging anybody out (README). Verified tokens are cached.
 */
import { CachingTokenService, createCryptoAdapters, generateSigningKey } from '@storefront/adapters-crypto';
import { ContainerModule } from 'inversify';
import { bindFactory } from '../binding.js';
import { TYPES } from '../identifiers.js';

export function cryptoModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bindFactory(bind, TYPES.CryptoAdapters, [TYPES.Config, TYPES.Logger, TYPES.Clock], (config, logger, clock) => {
      let signingKey = config.tokenSecretKey;
      if (signingKey === undefined) {
        signingKey = generateSigningKey();
        logger.warn({}, 'TOKEN_SECRET_KEY is not set: using an ephemeral token key; tokens will not survive a restart');
      }
      if (config.tokenVerifyKeysFromOldName) {
        logger.warn({}, 'TOKEN_PREVIOUS_KEYS is the old name of TOKEN_VERIFY_KEYS: its keys are used; rename the variable');
      }
      const { scrypt } = config;
      return createCryptoAdapters({
        signingKey,
        verificationKeys: config.tokenVerifyKeys,
        clock,
        scrypt: {
          logN: scrypt.logN,
          r: scrypt.r,
          p: scrypt.p,
          maxConcurrency: scrypt.maxConcurrency,
          maxQueue: scrypt.maxQueue,
          maxWaitMs: scrypt.maxWaitMs,
        },
      });
    });
    bindFactory(bind, TYPES.PasswordHasher, [TYPES.CryptoAdapters], (crypto) => crypto.hasher);
    // A signature is checked once per token until its expiry, by the clock the use cases run on.
    bindFactory(bind, TYPES.TokenService, [TYPES.CryptoAdapters, TYPES.Clock], (crypto, clock) => new CachingTokenService(crypto.tokens, { clock }));
  });
}
