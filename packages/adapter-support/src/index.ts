/**
 * @storefront/adapter-support: what Storefront's adapters share that is not the domain's. A
 * database adapter maps its driver's failures with `databaseOperations`; a webhook delivery store
 * leases by `leaseWindow`; every RateLimiter decides with the one sliding window. The domain keeps
 * the ports and the records they carry (`@storefront/domain`, `@storefront/domain/adapter-kit`).
 *
 * @packageDocumentation
 */
export { databaseOperations } from './database-operations.js';
export type { BusyPoolClassifier, DatabaseOperations, OutageClassifier } from './database-operations.js';
export { HELD_BACK_RECHECK_MS, HELD_BACK_SOON_MS, LEASE_HELD_SCAN, LEASE_MAX_WINDOWS, leaseWindow } from './lease-window.js';
export type { LeaseWindow } from './lease-window.js';
export { bucketWidthMs, decideSlidingWindow, SLIDING_WINDOW_BUCKETS } from './sliding-window.js';
export type { WindowBuckets } from './sliding-window.js';
export { MENU_REVISION_CHECK_MS, RevisionCheckedMenu } from './revision-checked-menu.js';
export { AUTHORIZATION_WINDOW_MS, CardNetwork, CardNetworkError, TEST_CARDS } from './card-network.js';
export type { CardAnswer, CardIntent, CardNetworkOptions, CardRefund } from './card-network.js';
export { IdempotencyConflict, IdempotencyLedger } from './idempotency-ledger.js';
export { METADATA_VALUE_MAX, paymentIntentOutcome, refundOutcome, refusalOf } from './payment-intents.js';
export type { IntentView, RefundView } from './payment-intents.js';
