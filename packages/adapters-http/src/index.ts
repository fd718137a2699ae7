/**
 * @storefront/adapters-http: the HTTP adapter. `createHttpApp(deps)` serves the Storefront interface
 * from a set of domain use cases and returns a Node request listener (Koa inside, confined to
 * koa-app.ts); `createHttpServer(app)` puts it on a Node server with the limits of DECISIONS. It
 * never touches a DI container.
 */
export { createHttpApp } from './koa-app.js';
export { createHttpServer } from './http-server.js';
export { accessLogLines, accessLogThrough, type AccessLineTarget } from './access-log.js';
export { HTTP_LIMITS, SERVER_TIMEOUTS, STREAM_LIMITS, type ServerTimeouts } from './limits.js';
export { OPENAPI_DOCUMENT_PATH, openApiDocument, type OpenApiDocument } from './contract/document.js';
export type { EventStreamsOptions } from './sse/event-streams.js';
export type { ApiReference, SwaggerUiFile } from './routes/docs.js';
export type { KitchenPage } from './routes/kitchen-page.js';
export type { AccessEntry, AccessLog, HttpApp, HttpAppDependencies, HttpAppOptions, HttpLogger, HttpObserver, PaymentEventsIntake, RequestSample, RouteEntry } from './app-types.js';
export { orderEventJson } from './mappers.js';
