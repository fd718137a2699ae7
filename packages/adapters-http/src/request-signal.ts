/**
 * An AbortSignal for a request, made only for the handlers that ask for one (a login: its password
 * hash is the one piece of work worth not starting for nobody), so other requests pay nothing. It
 * fires when the request is answered early by its time allowance (middleware/lifecycle.ts) or when
 * the client closes the connection before its answer is written.
 */
import type { Context } from 'koa';
import { stateOf } from './state.js';

export function requestSignal(ctx: Context): AbortSignal {
  const state = stateOf(ctx);
  if (state.abort !== undefined) return state.abort.signal;
  const controller = new AbortController();
  state.abort = controller;
  const { res } = ctx;
  // `close` comes after a complete answer too; only one cut short means the client left.
  if (res.destroyed) controller.abort();
  else res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
