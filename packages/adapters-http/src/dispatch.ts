/**
 * One request through its route once admitted and its body read: the caller a `caller` route needs,
 * then its operation's check (contract/operations.ts: path parameters, query, body against the
 * package's openapi.yaml), then the handler with the checked input. Koa (koa-app.ts) and the
 * handler tests call it alike.
 */
import { openApiDocument } from './contract/document.js';
import { operationChecks, type CheckedRequest, type OperationCheck, type RawRequest } from './contract/operations.js';
import type { OperationId } from './contract/input.js';
import { requireCaller, type Exchange } from './exchange.js';
import type { Reply } from './reply.js';
import type { Route } from './route.js';

/** An exchange with the request's raw parts, which only the check reads. */
export interface RoutedExchange extends Exchange, RawRequest {}

const NO_QUERY: Readonly<Record<string, never>> = Object.freeze({});

export function dispatch(route: Route, exchange: RoutedExchange): Promise<Reply> | Reply {
  if (route.access === 'caller') requireCaller(exchange);
  const input: CheckedRequest =
    route.operation === undefined ? { params: exchange.params, query: NO_QUERY, body: undefined } : checkOf(route.operation).check(exchange);
  return route.handle(exchange, input);
}

/** The check of `operation` in the repository's document, compiled on first use (createHttpApp: at start). */
export function checkOf(operation: OperationId): OperationCheck {
  const check = operationChecks(openApiDocument()).get(operation);
  if (check === undefined) throw new Error(`openapi.yaml has no operation ${operation}`);
  return check;
}

/** The access a path's prefix demands (DECISIONS "Roles"): admin under /api/admin/, staff under /api/staff/. */
export function accessOfPath(path: string): Route['access'] | undefined {
  if (path.startsWith('/api/admin/')) return 'admin';
  if (path.startsWith('/api/staff/')) return 'staff';
  return undefined;
}

/**
 * Compiles the document's checks and holds every route to its operation: the same method and path,
 * so that a route cannot be checked against another operation's rules; and a route under
 * /api/admin/ or /api/staff/ to that prefix's access, never a weaker one. Throws at start otherwise.
 */
export function verifyRoutes(routes: readonly Route[]): void {
  for (const route of routes) {
    const needed = accessOfPath(route.path);
    if (needed !== undefined && route.access !== needed) {
      throw new Error(`route ${route.method} ${route.path} must have access '${needed}', not '${route.access}'`);
    }
    if (route.operation === undefined) continue;
    const check = checkOf(route.operation);
    if (check.method !== route.method || check.path !== route.path) {
      throw new Error(`route ${route.method} ${route.path} is not operation ${route.operation} (${check.method} ${check.path})`);
    }
  }
}
