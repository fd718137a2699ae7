/** X-Request-Id on every response: a sane incoming id is echoed, anything else replaced. */
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { setHeader } from '../headers.js';

const SANE = /^[A-Za-z0-9._:\-]{1,128}$/;

export function requestId(): Middleware {
  return (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const id = SANE.test(incoming) ? incoming : randomUUID();
    ctx.state['requestId'] = id;
    setHeader(ctx, 'X-Request-Id', id);
    return next();
  };
}
