/**
 * The store: GET /api/store (public: open now? taking orders?), and the kitchen's controls (staff
 * only, checked by admission): PATCH /api/staff/store pauses or resumes ordering, PATCH
 * /api/staff/products/{product_id} marks a dish (un)available ("86 an item").
 */
import type { Storefront } from '@storefront/domain';
import { productJson, storeStatusJson } from '../mappers.js';
import { json } from '../reply.js';
import { get, patch, SAFE_TO_RETRY, type Route } from '../route.js';

const NO_STORE = ['Cache-Control', 'no-store'];

export function storeRoutes(storefront: Storefront): Route[] {
  return [
    get('/api/store', 'getStore', async () => json(200, storeStatusJson(await storefront.getStoreStatus.execute()), NO_STORE)),

    // Both PATCHes set a value rather than change it by some amount: sending one again is harmless.
    patch('/api/staff/store', 'setAcceptingOrders', { retry: SAFE_TO_RETRY, access: 'staff' }, async (_exchange, { body }) => {
      return json(200, storeStatusJson(await storefront.setAcceptingOrders.execute({ acceptingOrders: body.accepting_orders })), NO_STORE);
    }),

    patch('/api/staff/products/:product_id', 'setProductAvailability', { retry: SAFE_TO_RETRY, access: 'staff' }, async (_exchange, { params, body }) => {
      return json(200, productJson(await storefront.setProductAvailability.execute({ productId: params.product_id, available: body.available })), NO_STORE);
    }),
  ];
}
