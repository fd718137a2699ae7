#!/usr/bin/env node
/**
 * A client of the Storefront API typed from its contract: `storefront-api.d.ts` is generated from
 * packages/adapters-http/openapi.yaml by openapi-typescript (`pnpm gen:client`, run by every build), and
 * openapi-fetch checks each call against it: paths, parameters, bodies, and the `data` and `error`
 * of each answer. When the document changes in a way this code does not follow, `pnpm build`
 * fails here, before any client team finds out at run time.
 *
 *   pnpm start                                             # in another terminal: demo data
 *   pnpm build && node examples/typed-client/dist/main.js  # or --url / STOREFRONT_URL, --limit
 *
 * It logs in as the demo customer alice, reads the menu, places an order (with an
 * Idempotency-Key, so a retry would not order twice) of a dish that needs no options, then pages
 * through alice's orders following `meta.next_page`. Any error answer stops it with exit code 1 and
 * the error body on stderr.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import createClient from 'openapi-fetch';
import type { components, paths } from './storefront-api.js';

type Product = components['schemas']['Product'];
type Order = components['schemas']['Order'];
type OrderList = components['schemas']['OrderList'];

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    email: { type: 'string', default: 'alice@example.com' },
    password: { type: 'string', default: 'alice-password' },
    limit: { type: 'string', default: '20' },
  },
});
const baseUrl = (args.url ?? process.env['STOREFRONT_URL'] ?? 'http://localhost:3000').replace(/\/+$/, '');
const pageSize = Number(args.limit);

/** An error answer of the API: its status, and its body as the contract types it. */
class ApiError extends Error {
  constructor(
    what: string,
    readonly status: number,
    readonly body: { readonly error: string },
  ) {
    super(`${what}: ${status} ${body.error} ${JSON.stringify(body)}`);
  }
}

/**
 * The `data` of an answer, or an ApiError with its `error`. openapi-fetch gives one or the other;
 * the body of an error answer is typed too (`{error, message, details?}`, or the bare
 * `{error: "invalid_credentials"}` of a failed login), so a client can branch on `error.error`.
 */
function expectData<T, E extends { error: string }>(what: string, answer: { data?: T; error?: E; response: Response }): T {
  if (answer.error !== undefined) throw new ApiError(what, answer.response.status, answer.error);
  if (answer.data === undefined) throw new Error(`${what}: ${answer.response.status} without a body`);
  return answer.data;
}

function money(amount: number, currency: string): string {
  return `${(amount / 100).toFixed(2)} ${currency}`;
}

/** A dish that can be ordered as `{product_id, quantity}`: available, every option group optional. */
function orderableAsIs(product: Product): boolean {
  return product.available && product.option_groups.every((group) => group.min === 0);
}

async function main(): Promise<void> {
  const anonymous = createClient<paths>({ baseUrl });

  const tokens = expectData(
    'login',
    await anonymous.POST('/api/auth/login', { body: { email: args.email, password: args.password } }),
  );
  console.log(`logged in as ${args.email} (token valid ${tokens.expires_in} s)`);
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `${tokens.token_type} ${tokens.access_token}` } });

  const { products } = expectData('menu', await client.GET('/api/products'));
  const dish = products.find(orderableAsIs);
  if (dish === undefined) throw new Error(`none of the ${products.length} products can be ordered without options`);
  console.log(`menu: ${products.length} products; ordering ${dish.name} (${money(dish.price, dish.currency)})`);

  const order = expectData(
    'place order',
    await client.POST('/api/orders', {
      params: { header: { 'Idempotency-Key': `typed-client-${randomUUID()}` } },
      body: { items: [{ product_id: dish.product_id, quantity: 2 }] },
    }),
  );
  console.log(`placed ${order.order_id}: ${order.status}, ${money(order.amount, order.currency)}`);

  // Oldest first, so following next_page never skips or repeats an order placed meanwhile.
  const orders: Order[] = [];
  for (let page: number | null = 1; page !== null; ) {
    // Annotated: `page` is both the query's input and read from this answer, a loop tsc cannot infer.
    const { meta, orders: rows }: OrderList = expectData(
      `orders page ${page}`,
      await client.GET('/api/orders', { params: { query: { page, limit: pageSize } } }),
    );
    console.log(`page ${meta.page}: ${rows.length} orders`);
    orders.push(...rows);
    page = meta.next_page;
  }
  const found = orders.some((o) => o.order_id === order.order_id);
  console.log(`${orders.length} orders in all; ${order.order_id} ${found ? 'is' : 'is NOT'} among them`);
  if (!found) throw new Error(`the order just placed, ${order.order_id}, is missing from the list`);
}

main().catch((error: unknown) => {
  // fetch's own failures (refused, reset) say what happened in `cause`.
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  console.error(`typed-client: ${error instanceof Error ? error.message : String(error)}${cause}`);
  process.exitCode = 1;
});
