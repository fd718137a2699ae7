/**
 * Path parameters as handlers read them. An id that cannot be one of ours (wrong prefix, odd
 * characters, absurd length) is answered 404 at once, like an unknown id: it never reaches a store
 * (where a driver could choke on it) and never turns into a 400 that tells ids apart.
 */
import type { Exchange } from './exchange.js';
import { HttpProblem } from './problem.js';

/** Ids are a type prefix and lower-case base32 (domain ids.ts: 20 to 26 characters today); 64 leaves room. */
const ORDER_ID = /^ord_[0-9a-z]{1,64}$/;
const PRODUCT_ID = /^prd_[0-9a-z]{1,64}$/;

export function orderIdParam(exchange: Pick<Exchange, 'params'>): string {
  return idParam(exchange, 'order_id', ORDER_ID, 'No such order.');
}

export function productIdParam(exchange: Pick<Exchange, 'params'>): string {
  return idParam(exchange, 'product_id', PRODUCT_ID, 'No such product.');
}

function idParam(exchange: Pick<Exchange, 'params'>, name: string, pattern: RegExp, message: string): string {
  const value = exchange.params[name];
  if (value === undefined || !pattern.test(value)) throw new HttpProblem('not_found', message);
  return value;
}
