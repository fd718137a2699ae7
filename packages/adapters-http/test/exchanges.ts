/** Handler tests without a socket: a plain-object Exchange, a route by method and path, a reply's body. */
import { dispatch, type RoutedExchange } from '../src/dispatch.js';
import type { Reply } from '../src/reply.js';
import type { Route } from '../src/route.js';

export function anExchange(overrides: Partial<RoutedExchange> & { headers?: Record<string, string> } = {}): RoutedExchange {
  const { headers = {}, ...rest } = overrides;
  return {
    method: 'GET',
    path: '/',
    params: {},
    query: {},
    body: undefined,
    header: (name) => headers[name],
    client: '192.0.2.1',
    requestId: 'test-1',
    caller: undefined,
    rateLimit: undefined,
    signal: new AbortController().signal,
    ...rest,
  };
}

export function routeOf(routes: Route[], method: string, path: string): Route {
  const route = routes.find((r) => r.method === method && r.path === path);
  if (route === undefined) throw new Error(`no route ${method} ${path}`);
  return route;
}

export const bodyOf = (reply: Reply): unknown => {
  if (reply.body.kind === 'json') return reply.body.value;
  if (reply.body.kind === 'bytes') return JSON.parse(reply.body.data.toString());
  return undefined;
};

/** What a handler threw (or rejected with); fails when it answered. */
export async function refusalOf(route: Route, exchange: RoutedExchange): Promise<unknown> {
  try {
    const reply = await dispatch(route, exchange);
    throw new Error(`expected a refusal, got ${reply.status}`);
  } catch (error) {
    return error;
  }
}
