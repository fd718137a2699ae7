/**
 * The store: GET /api/store (public: open now? taking orders?), GET /api/store/slots and GET
 * /api/store/delivery-quote (public: when and where it hands orders over), and the kitchen's controls (staff
 * only, checked by admission): PATCH /api/staff/store pauses or resumes ordering, PATCH
 * /api/staff/products/{product_id} marks a dish (un)available ("86 an item").
 */
import type { Storefront } from '@storefront/domain';
import { deliveryQuoteJson, productJson, slotListJson, storeStatusJson } from '../mappers.js';
import { json } from '../reply.js';
import { get, patch, SAFE_TO_RETRY, type Route } from '../route.js';

const NO_STORE = ['Cache-Control', 'no-store'];

export function storeRoutes(storefront: Storefront): Route[] {
  return [
    get('/api/store', 'getStore', async () => json(200, storeStatusJson(await storefront.getStoreStatus.execute()), NO_STORE)),

    get('/api/store/slots', 'listSlots', async (_exchange, { query }) =>
      json(200, slotListJson(await storefront.listSlots.execute({ type: query.type, date: query.date })), NO_STORE),
    ),

    get('/api/store/delivery-quote', 'quoteDelivery', async (_exchange, { query }) =>
      json(200, deliveryQuoteJson(storefront.quoteDelivery.execute({ lat: query.lat, lng: query.lng })), NO_STORE),
    ),

    // Both PATCHes set a value rather than change it by some amount: sending one again is harmless.
    patch('/api/staff/store', 'setAcceptingOrders', { retry: SAFE_TO_RETRY, access: 'staff' }, async (_exchange, { body }) => {
      return json(200, storeStatusJson(await storefront.setAcceptingOrders.execute({ acceptingOrders: body.accepting_orders })), NO_STORE);
    }),

    patch('/api/staff/products/:product_id', 'setProductAvailability', { retry: SAFE_TO_RETRY, access: 'staff' }, async (_exchange, { params, body }) => {
      return json(200, productJson(await storefront.setProductAvailability.execute({ productId: params.product_id, available: body.available }), storefront.taxes), NO_STORE);
    }),
  ];
}
