/**
 * Every migration, oldest first: version N is MIGRATIONS[N - 1]. Append only; a released
 * migration is never edited (a database that applied it would never see the change).
 */
import type { Migration } from './migration.js';
import { initialSchema } from './001-initial-schema.js';
import { fulfilment } from './002-fulfilment.js';
import { positionsByReaders } from './003-positions-by-readers.js';
import { webhooks } from './004-webhooks.js';
import { slotPlaceLeases } from './005-slot-place-leases.js';
import { webhookRetention } from './006-webhook-retention.js';
import { erasurePending } from './007-erasure-pending.js';
import { taxes } from './008-taxes.js';
import { providerEvents } from './009-provider-events.js';
import { orderPayments } from './010-order-payments.js';
import { numberingAppends } from './011-numbering-appends.js';

export const MIGRATIONS: readonly Migration[] = [initialSchema, fulfilment, positionsByReaders, webhooks, slotPlaceLeases, webhookRetention, erasurePending, taxes, providerEvents, orderPayments, numberingAppends];

export type { Migration };
