/** GET /api/me, GET /api/rate-limit and GET /api/status. */
import type { Router } from '../router.js';
import type { Storefront } from '@storefront/domain';
import { customerJson, rateLimitJson } from '../mappers.js';
import { RATE_LIMIT_STATUS_PATH } from '../middleware/rate-limit.js';
import { requireCaller, stateOf } from '../state.js';

export function accountRoutes(router: Router, storefront: Storefront): void {
  router.get('/api/me', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = customerJson(storefront.getCurrentCustomer.execute(requireCaller(ctx)));
  });

  // The rate-limit middleware has already peeked at the quota (without consuming it).
  router.get(RATE_LIMIT_STATUS_PATH, (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = rateLimitJson(stateOf(ctx).rateLimit!);
  });

  router.get('/api/status', async (ctx) => {
    const status = await storefront.checkStatus.execute();
    ctx.set('Cache-Control', 'no-store');
    ctx.status = status.status === 'ok' ? 200 : 503;
    ctx.body = status;
  });
}
