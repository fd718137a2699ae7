/**
 * @storefront/domain: the pure core of Storefront. Entities, use cases, ports and domain errors;
 * no runtime dependencies, no I/O. Adapters implement the ports; `createStorefront` wires the use
 * cases from them.
 */
export * from './errors.js';
export * from './model/product.js';
export * from './model/customer.js';
export * from './model/order.js';
export * from './model/session.js';
export * from './model/page.js';
export { parseMenuDocument, parseProductDraft, Issues } from './model/validation.js';
export type * from './ports/menu-repository.js';
export type * from './ports/order-repository.js';
export type * from './ports/customer-repository.js';
export type * from './ports/session-store.js';
export type * from './ports/rate-limiter.js';
export type * from './ports/health.js';
export type { AccessClaims, Clock, PasswordHasher, TokenService } from './ports/security.js';
export { systemClock } from './ports/security.js';
export * from './rate-limit/sliding-window.js';
export * from './rate-limit/fallback-rate-limiter.js';
export { MenuSearchIndex } from './search/menu-search-index.js';
export { normalizeText, tokenize, SEARCH_LIMITS } from './search/normalize.js';
export { topK } from './search/top-k.js';
export { MenuCatalog, type MenuSnapshot } from './menu-catalog.js';
export { newId, OrderStamper, sha256Hex, type IdPrefix } from './ids.js';
export * from './session-tokens.js';
export * from './use-cases/authenticate.js';
export * from './use-cases/check-status.js';
export * from './use-cases/get-current-customer.js';
export * from './use-cases/import-menu.js';
export * from './use-cases/list-menu.js';
export * from './use-cases/list-orders.js';
export * from './use-cases/login.js';
export * from './use-cases/logout.js';
export * from './use-cases/paging.js';
export * from './use-cases/place-order.js';
export * from './use-cases/rate-limits.js';
export * from './use-cases/refresh-session.js';
export * from './use-cases/register-customer.js';
export * from './use-cases/search-menu.js';
export * from './use-cases/set-customer-disabled.js';
export * from './storefront.js';
