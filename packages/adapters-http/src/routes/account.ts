/**
 * GET /api/me, POST /api/me/delete (the caller erases the account: its live streams on this
 * instance end at once), GET /api/rate-limit and GET /api/status.
 */
import type { Storefront } from '@storefront/domain';
import type { EventStreams } from '../sse/event-streams.js';
import { requireCaller } from '../exchange.js';
import { customerJson, rateLimitJson } from '../mappers.js';
import { empty, json } from '../reply.js';
import { get, post, type Route } from '../route.js';

/** What a client may do after a 500 (route.ts, `retry`). */
const RETRY_ERASE = 'Send it again: a 401 answer to the same token means the account is already erased.';

const NO_STORE = ['Cache-Control', 'no-store'];

export function accountRoutes(storefront: Storefront, streams: Pick<EventStreams, 'endCustomer'>): Route[] {
  return [
    get('/api/me', 'getCurrentCustomer', (exchange) => json(200, customerJson(storefront.getCurrentCustomer.execute(requireCaller(exchange))), NO_STORE), { access: 'caller' }),

    // POST, not DELETE: a body on DELETE is not reliably carried by clients and proxies.
    post('/api/me/delete', 'deleteAccount', { retry: RETRY_ERASE, access: 'caller' }, async (exchange, { body }) => {
      const caller = requireCaller(exchange);
      await storefront.eraseAccount.execute({ caller, password: body.password, client: exchange.client, signal: exchange.signal });
      streams.endCustomer(caller.customer.customerId);
      return empty(204, NO_STORE);
    }),

    // Peek routes: admission has looked at the caller's quota without consuming it, and counted the
    // request against the route's own per-address limit (admission.ts).
    get('/api/rate-limit', 'getRateLimitStatus', (exchange) => json(200, rateLimitJson(exchange.rateLimit!), NO_STORE), { quota: 'peek' }),

    get(
      '/api/status',
      'getStatus',
      async () => {
        const status = await storefront.checkStatus.execute();
        return json(status.status === 'ok' ? 200 : 503, status, NO_STORE);
      },
      { quota: 'peek' },
    ),
  ];
}
