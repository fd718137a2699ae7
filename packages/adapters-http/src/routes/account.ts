/** GET /api/me, GET /api/rate-limit and GET /api/status. */
import type { Router } from '../router.js';
import type { Storefront } from '@storefront/domain';
import { customerJson, rateLimitJson } from '../mappers.js';
import { RATE_LIMIT_STATUS_PATH } from '../middleware/rate-limit.js';
import { send, setHeader } from '../reply.js';
import { requireCaller, stateOf } from '../state.js';

export function accountRoutes(router: Router, storefront: Storefront): void {
  router.get('/api/me', (ctx) => {
    setHeader(ctx, 'Cache-Control', 'no-store');
    send(ctx, 200, customerJson(storefront.getCurrentCustomer.execute(requireCaller(ctx))));
  });

  // The rate-limit middleware has already peeked at the quota (without consuming it).
  router.get(RATE_LIMIT_STATUS_PATH, (ctx) => {
    setHeader(ctx, 'Cache-Control', 'no-store');
    send(ctx, 200, rateLimitJson(stateOf(ctx).rateLimit!));
  });

  router.get('/api/status', async (ctx) => {
    const status = await storefront.checkStatus.execute();
    setHeader(ctx, 'Cache-Control', 'no-store');
    send(ctx, status.status === 'ok' ? 200 : 503, status);
  });
}
