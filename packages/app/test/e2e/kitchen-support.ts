/**
 * Shared helpers of the kitchen end-to-end specs: the demo staff account, placing an order as a
 * fresh customer, and moving an order as the kitchen does, all over HTTP.
 */
import { expect } from 'chai';
import type { Res, ServerHandle } from './support.js';
import { availableProducts, call, login, newCustomer, placeOrder } from './support.js';

/** The demo data's staff account. */
export const KITCHEN = { email: 'kitchen@example.com', password: 'kitchen-password' } as const;

export type OrderStatus = 'placed' | 'accepted' | 'preparing' | 'ready' | 'completed' | 'rejected' | 'cancelled';
export const STATUSES: readonly OrderStatus[] = ['placed', 'accepted', 'preparing', 'ready', 'completed', 'rejected', 'cancelled'];

export interface OrderJson {
  readonly order_id: string;
  readonly status: OrderStatus;
  readonly version: number;
  readonly created_at: string;
  readonly updated_at: string;
  readonly status_history: { status: OrderStatus; at: string }[];
  readonly reason?: string;
}

export async function staffToken(base: string): Promise<string> {
  return (await login(base, KITCHEN.email, KITCHEN.password, { localAddress: '127.0.0.98' })).access_token;
}

/** A fresh customer's token and one order of theirs, `placed`. */
export async function aPlacedOrder(h: ServerHandle): Promise<{ token: string; order: OrderJson }> {
  const { token } = await newCustomer(h, 'kitchen');
  const product = (await availableProducts(h.url))[0]!;
  const res = await placeOrder(h.url, token, [{ product_id: product.product_id, quantity: 1 }]);
  expect(res.status, res.text).to.equal(201);
  return { token, order: res.body as OrderJson };
}

export interface MoveOptions {
  readonly reason?: string;
  readonly ifMatch?: string;
}

export function move(base: string, token: string, orderId: string, status: string, opts: MoveOptions = {}): Promise<Res> {
  const json: Record<string, string> = { status };
  if (opts.reason !== undefined) json['reason'] = opts.reason;
  return call(base, `/api/staff/orders/${orderId}/status`, { token, json, headers: opts.ifMatch === undefined ? {} : { 'If-Match': opts.ifMatch } });
}

/** The path of the staff moves from `placed` to `to` (reasons where the lifecycle needs one). */
export const PATH_TO: Readonly<Record<OrderStatus, readonly { status: OrderStatus; reason?: string }[]>> = {
  placed: [],
  accepted: [{ status: 'accepted' }],
  preparing: [{ status: 'accepted' }, { status: 'preparing' }],
  ready: [{ status: 'accepted' }, { status: 'preparing' }, { status: 'ready' }],
  completed: [{ status: 'accepted' }, { status: 'preparing' }, { status: 'ready' }, { status: 'completed' }],
  rejected: [{ status: 'rejected', reason: 'out of falafel' }],
  cancelled: [{ status: 'cancelled', reason: 'customer called' }],
};

/** Walks `orderId` from `placed` to `to` as the kitchen; the order as it ends. */
export async function walkTo(base: string, staff: string, orderId: string, to: OrderStatus): Promise<OrderJson> {
  let last: OrderJson | undefined;
  for (const step of PATH_TO[to]) {
    const res = await move(base, staff, orderId, step.status, step.reason === undefined ? {} : { reason: step.reason });
    expect(res.status, `move to ${step.status}: ${res.text}`).to.equal(200);
    last = res.body as OrderJson;
  }
  return last ?? ((await call(base, `/api/orders/${orderId}`, { token: staff })).body as OrderJson);
}
