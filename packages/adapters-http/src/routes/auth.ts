/**
 * POST /api/auth/login, /refresh, /logout, /register, /password-reset and /password-reset/confirm.
 * A logout also ends the session's live order streams on this instance at once, and a password
 * reset every stream of the account (other instances find out when they authenticate their streams
 * again: sse/event-streams.ts). Unknown body fields are ignored here as they are by login.
 */
import type { Storefront, TokenPair } from '@storefront/domain';
import type { EventStreams } from '../sse/event-streams.js';
import { requireCaller } from '../exchange.js';
import { tokenPairJson } from '../mappers.js';
import { empty, json, type Reply } from '../reply.js';
import { post, type Route } from '../route.js';

/** What a client may do after a 500 from each route (route.ts, `retry`). */
const RETRY = {
  login: 'Logging in again is harmless, but each attempt counts against the login limit.',
  refresh: 'The refresh token may already have been used: if a retry with it is refused, log in again.',
  logout: 'Send the logout again: a 401 answer means the session is already closed.',
  register: 'Signing up again is harmless: if the first attempt created the account, the retry is answered 409 email_taken; then log in.',
  passwordReset: 'Asking again is harmless (a second email may arrive; each link works once), but each request counts against the reset limit.',
  passwordResetConfirm: 'Send it again with the same token: a 400 invalid_reset_token answer means it was spent; log in with the new password, or ask for a new email if that fails.',
} as const;

const NO_STORE = ['Cache-Control', 'no-store'];

export function authRoutes(storefront: Storefront, streams: Pick<EventStreams, 'endSession' | 'endCustomer'>): Route[] {
  return [
    post('/api/auth/login', 'login', { retry: RETRY.login }, async (exchange, { body }) => {
      return pairReply(
        await storefront.login.execute({
          email: body.email,
          password: body.password,
          client: exchange.client,
          // A login answered by its time-out, or whose client left, never starts its hash.
          signal: exchange.signal,
        }),
      );
    }),

    post('/api/auth/refresh', 'refreshSession', { retry: RETRY.refresh }, async (_exchange, { body }) => {
      return pairReply(await storefront.refreshSession.execute({ refreshToken: body.refresh_token }));
    }),

    post('/api/auth/logout', 'logout', { retry: RETRY.logout, access: 'caller' }, async (exchange) => {
      const caller = requireCaller(exchange);
      await storefront.logout.execute(caller);
      streams.endSession(caller.claims.sid);
      return empty(204, NO_STORE);
    }),

    post('/api/auth/register', 'register', { retry: RETRY.register }, async (exchange, { body }) => {
      const pair = await storefront.signUp.execute({
        email: body.email,
        password: body.password,
        name: body.name,
        client: exchange.client,
        // The same bounded hasher as logins: a sign-up nobody waits for never starts its hash.
        signal: exchange.signal,
      });
      return pairReply(pair, 201);
    }),

    // 202 whatever the email: the look-up and the email run in the background (no enumeration).
    post('/api/auth/password-reset', 'requestPasswordReset', { retry: RETRY.passwordReset }, async (exchange, { body }) => {
      await storefront.requestPasswordReset.execute({ email: body.email, client: exchange.client });
      return json(202, {}, NO_STORE);
    }),

    post('/api/auth/password-reset/confirm', 'confirmPasswordReset', { retry: RETRY.passwordResetConfirm }, async (exchange, { body }) => {
      const { customerId } = await storefront.confirmPasswordReset.execute({ token: body.token, password: body.password, signal: exchange.signal });
      // Every session of the account is revoked: its streams on this instance end now.
      streams.endCustomer(customerId);
      return empty(204, NO_STORE);
    }),
  ];
}

function pairReply(pair: TokenPair, status: 200 | 201 = 200): Reply {
  return json(status, tokenPairJson(pair), ['Cache-Control', 'no-store', 'X-Refresh-Token-Expires-In', String(pair.refreshExpiresIn)]);
}
