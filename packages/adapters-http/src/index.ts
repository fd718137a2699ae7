/**
 * @storefront/adapters-http: the Koa HTTP adapter. `createHttpApp(deps)` returns a Koa app that
 * serves the Storefront interface from a set of domain use cases; it never touches a DI container.
 */
export { createHttpApp, requestListener, routeTable } from './app.js';
export type { AccessEntry, AccessLog, HttpAppDependencies, HttpAppOptions, HttpLogger, RouteEntry } from './app.js';
