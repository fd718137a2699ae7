/** GET /api/me, GET /api/rate-limit and GET /api/status. */
import type { Storefront } from '@storefront/domain';
import { requireCaller } from '../exchange.js';
import { customerJson, rateLimitJson } from '../mappers.js';
import { json } from '../reply.js';
import { get, type Route } from '../route.js';

const NO_STORE = ['Cache-Control', 'no-store'];

export function accountRoutes(storefront: Storefront): Route[] {
  return [
    get('/api/me', (exchange) => json(200, customerJson(storefront.getCurrentCustomer.execute(requireCaller(exchange))), NO_STORE)),

    // Peek routes: admission has looked at the caller's quota without consuming it, and counted the
    // request against the route's own per-address limit (admission.ts).
    get('/api/rate-limit', (exchange) => json(200, rateLimitJson(exchange.rateLimit!), NO_STORE), { quota: 'peek' }),

    get(
      '/api/status',
      async () => {
        const status = await storefront.checkStatus.execute();
        return json(status.status === 'ok' ? 200 : 503, status, NO_STORE);
      },
      { quota: 'peek' },
    ),
  ];
}
