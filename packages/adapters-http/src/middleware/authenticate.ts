/**
 * Reads `Authorization: Bearer <token>`. No header: anonymous. A header that does not hold a live
 * token is remembered and refused after rate limiting (on every endpoint, public ones included),
 * so a client learns at once that its token is bad and bad tokens still spend the caller's quota.
 */
import type { Authenticate } from '@storefront/domain';
import { DomainError, isDomainError } from '@storefront/domain';
import type { Context, Middleware } from 'koa';
import { stateOf } from '../state.js';

const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]{1,4096})$/i;

export function identifyCaller(authenticate: Authenticate): Middleware {
  return (ctx, next) => {
    const header = ctx.get('authorization');
    // Anonymous: nothing to wait for.
    if (header === '') return next();
    return identify(ctx, header, authenticate).then(next);
  };
}

async function identify(ctx: Context, header: string, authenticate: Authenticate): Promise<void> {
  const match = BEARER.exec(header.trim());
  try {
    if (match === null) throw new DomainError('invalid_token', 'Send the access token as "Authorization: Bearer <token>".');
    stateOf(ctx).caller = await authenticate.execute(match[1]!);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    stateOf(ctx).authError = error;
  }
}

export function refuseBadCredentials(): Middleware {
  return (ctx, next) => {
    const { authError } = stateOf(ctx);
    if (authError !== undefined) throw authError;
    return next();
  };
}
