/**
 * Response headers set on every request, straight on Node's response: Koa's `ctx.set` ends in the
 * same `res.setHeader` after a delegate, an `arguments` check and a string conversion, which add up
 * over the dozen headers of each answer. For string values, before the response is sent (which is
 * when middleware and handlers run); anything else keeps using `ctx.set`.
 */
import type { Context } from 'koa';

export function setHeader(ctx: Context, name: string, value: string): void {
  ctx.res.setHeader(name, value);
}

export const JSON_TYPE = 'application/json; charset=utf-8';
