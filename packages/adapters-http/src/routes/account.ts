/** GET /api/me, GET /api/rate-limit and GET /api/status. */
import type { Router } from '../router.js';
import type { Storefront } from '@storefront/domain';
import { customerJson, rateLimitJson } from '../mappers.js';
import { send, setHeader } from '../reply.js';
import { requireCaller, stateOf } from '../state.js';

export function accountRoutes(router: Router, storefront: Storefront): void {
  router.get('/api/me', (ctx) => {
    setHeader(ctx, 'Cache-Control', 'no-store');
    send(ctx, 200, customerJson(storefront.getCurrentCustomer.execute(requireCaller(ctx))));
  });

  // Peek routes: admission has looked at the caller's quota without consuming it, and counted the
  // request against the route's own per-address limit (middleware/admission.ts).
  router.get('/api/rate-limit', { quota: 'peek' }, (ctx) => {
    setHeader(ctx, 'Cache-Control', 'no-store');
    send(ctx, 200, rateLimitJson(stateOf(ctx).rateLimit!));
  });

  router.get('/api/status', { quota: 'peek' }, async (ctx) => {
    const status = await storefront.checkStatus.execute();
    setHeader(ctx, 'Cache-Control', 'no-store');
    send(ctx, status.status === 'ok' ? 200 : 503, status);
  });
}
