/**
 * The store: GET /api/store (public: open now? taking orders?), GET /api/store/slots and GET
 * /api/store/delivery-quote (public: when and where it hands orders over), and the kitchen's controls (staff
 * only, checked by admission): PATCH /api/staff/store pauses or resumes ordering, PATCH
 * /api/staff/products/{product_id} marks a dish (un)available ("86 an item").
 */
import type { FieldIssue, Storefront } from '@storefront/domain';
import { knownFields, requiredBoolean } from '../body-fields.js';
import type { Exchange } from '../exchange.js';
import { deliveryQuoteJson, productJson, slotListJson, storeStatusJson } from '../mappers.js';
import { validationProblem } from '../problem.js';
import { readString } from '../query.js';
import { productIdParam } from '../path-params.js';
import { json } from '../reply.js';
import { get, patch, SAFE_TO_RETRY, type Route } from '../route.js';

const NO_STORE = ['Cache-Control', 'no-store'];

export function storeRoutes(storefront: Storefront): Route[] {
  return [
    get('/api/store', async () => json(200, storeStatusJson(await storefront.getStoreStatus.execute()), NO_STORE)),

    get('/api/store/slots', async (exchange) => {
      const issues: FieldIssue[] = [];
      const type = readString(exchange, 'type', issues);
      const date = readString(exchange, 'date', issues);
      if (issues.length > 0) throw validationProblem(issues);
      return json(200, slotListJson(await storefront.listSlots.execute({ type, date })), NO_STORE);
    }),

    get('/api/store/delivery-quote', async (exchange) => {
      const issues: FieldIssue[] = [];
      const lat = readDegrees(exchange, 'lat', issues);
      const lng = readDegrees(exchange, 'lng', issues);
      if (issues.length > 0) throw validationProblem(issues);
      return json(200, deliveryQuoteJson(storefront.quoteDelivery.execute({ lat, lng })), NO_STORE);
    }),

    // Both PATCHes set a value rather than change it by some amount: sending one again is harmless.
    patch('/api/staff/store', { retry: SAFE_TO_RETRY, access: 'staff' }, async (exchange) => {
      const acceptingOrders = requiredBoolean(knownFields(exchange.body, ['accepting_orders']), 'accepting_orders');
      return json(200, storeStatusJson(await storefront.setAcceptingOrders.execute({ acceptingOrders })), NO_STORE);
    }),

    patch('/api/staff/products/:product_id', { retry: SAFE_TO_RETRY, access: 'staff' }, async (exchange) => {
      const productId = productIdParam(exchange);
      const available = requiredBoolean(knownFields(exchange.body, ['available']), 'available');
      return json(200, productJson(await storefront.setProductAvailability.execute({ productId, available })), NO_STORE);
    }),
  ];
}

/** A coordinate in decimal degrees as a query parameter (`52.52`, `-0.1`); the domain checks the range. */
function readDegrees(exchange: Pick<Exchange, 'query'>, name: string, issues: FieldIssue[]): number | undefined {
  const raw = readString(exchange, name, issues);
  if (raw === undefined) return undefined;
  if (!/^-?\d{1,3}(\.\d{1,15})?$/.test(raw)) {
    issues.push({ path: name, message: 'must be a number of degrees, e.g. 52.5219' });
    return undefined;
  }
  return Number(raw);
}
