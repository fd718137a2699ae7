/**
 * POST /api/auth/login, /api/auth/refresh and /api/auth/logout. A logout also ends the session's
 * live order streams on this instance at once (other instances find out when they authenticate
 * their streams again: event-streams.ts).
 */
import type { Storefront, TokenPair } from '@storefront/domain';
import { isRecord } from '@storefront/domain';
import type { EventStreams } from '../event-streams.js';
import { requireCaller } from '../exchange.js';
import { tokenPairJson } from '../mappers.js';
import { validationProblem } from '../problem.js';
import { empty, json, type Reply } from '../reply.js';
import { post, type Route } from '../route.js';

/** What a client may do after a 500 from each route (route.ts, `retry`). */
const RETRY = {
  login: 'Logging in again is harmless, but each attempt counts against the login limit.',
  refresh: 'The refresh token may already have been used: if a retry with it is refused, log in again.',
  logout: 'Send the logout again: a 401 answer means the session is already closed.',
} as const;

const NO_STORE = ['Cache-Control', 'no-store'];

export function authRoutes(storefront: Storefront, streams: Pick<EventStreams, 'endSession'>): Route[] {
  return [
    post('/api/auth/login', { retry: RETRY.login }, async (exchange) => {
      const body = objectBody(exchange.body);
      return pairReply(
        await storefront.login.execute({
          email: body['email'],
          password: body['password'],
          client: exchange.client,
          // A login answered by its time-out, or whose client left, never starts its hash.
          signal: exchange.signal,
        }),
      );
    }),

    post('/api/auth/refresh', { retry: RETRY.refresh }, async (exchange) => {
      const body = objectBody(exchange.body);
      return pairReply(await storefront.refreshSession.execute({ refreshToken: body['refresh_token'] }));
    }),

    post('/api/auth/logout', { retry: RETRY.logout }, async (exchange) => {
      const caller = requireCaller(exchange);
      await storefront.logout.execute(caller);
      streams.endSession(caller.claims.sid);
      return empty(204, NO_STORE);
    }),
  ];
}

function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (!isRecord(body)) throw validationProblem([{ path: '', message: 'the body must be a JSON object' }]);
  return body;
}

function pairReply(pair: TokenPair): Reply {
  return json(200, tokenPairJson(pair), ['Cache-Control', 'no-store', 'X-Refresh-Token-Expires-In', String(pair.refreshExpiresIn)]);
}
