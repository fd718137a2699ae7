/** POST /api/auth/login, /api/auth/refresh and /api/auth/logout. */
import type { Router } from '../router.js';
import type { Storefront, TokenPair } from '@storefront/domain';
import type { Context, Middleware } from 'koa';
import { isRecord } from '../json.js';
import { tokenPairJson } from '../mappers.js';
import { validationProblem } from '../problem.js';
import { send, setHeader } from '../reply.js';
import { clientLimitKey } from '../client-address.js';
import { requestSignal } from '../request-signal.js';
import { requireCaller } from '../state.js';

/** What a client may do after a 500 from each route (router.ts, `retry`). */
const RETRY = {
  login: 'Logging in again is harmless, but each attempt counts against the login limit.',
  refresh: 'The refresh token may already have been used: if a retry with it is refused, log in again.',
  logout: 'Send the logout again: a 401 answer means the session is already closed.',
} as const;

export function authRoutes(router: Router, storefront: Storefront, jsonBody: Middleware): void {
  router.post('/api/auth/login', { retry: RETRY.login }, jsonBody, async (ctx) => {
    const body = objectBody(ctx.request.body);
    const pair = await storefront.login.execute({
      email: body['email'],
      password: body['password'],
      client: clientLimitKey(ctx),
      // A login answered by its time-out, or whose client left, never starts its hash.
      signal: requestSignal(ctx),
    });
    sendPair(ctx, pair);
  });

  router.post('/api/auth/refresh', { retry: RETRY.refresh }, jsonBody, async (ctx) => {
    const body = objectBody(ctx.request.body);
    sendPair(ctx, await storefront.refreshSession.execute({ refreshToken: body['refresh_token'] }));
  });

  router.post('/api/auth/logout', { retry: RETRY.logout }, jsonBody, async (ctx) => {
    await storefront.logout.execute(requireCaller(ctx));
    setHeader(ctx, 'Cache-Control', 'no-store');
    send(ctx, 204);
  });
}

function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (!isRecord(body)) throw validationProblem([{ path: '', message: 'the body must be a JSON object' }]);
  return body;
}

function sendPair(ctx: Context, pair: TokenPair): void {
  setHeader(ctx, 'Cache-Control', 'no-store');
  setHeader(ctx, 'X-Refresh-Token-Expires-In', String(pair.refreshExpiresIn));
  send(ctx, 200, tokenPairJson(pair));
}
