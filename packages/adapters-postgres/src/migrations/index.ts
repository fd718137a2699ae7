/**
 * Every migration, oldest first: version N is MIGRATIONS[N - 1]. Append only; a released
 * migration is never edited (a database that applied it would never see the change).
 */
import { initialSchema } from './001-initial-schema.js';
import { fulfilment } from './002-fulfilment.js';
import { webhooks } from './004-webhooks.js';

export interface Migration {
  /** A few words for the log and schema_migrations. */
  readonly name: string;
  /** Run inside the migrating transaction; may hold several statements. */
  readonly sql: string;
}

/**
 * 004-webhooks was written beside 003 (kitchen queues, another branch): the runner numbers
 * migrations by their place here and has no gaps, so until 003 is merged in before it, it runs as
 * version 3 on this branch. Merging puts 003 in its place and 004 after it.
 */
export const MIGRATIONS: readonly Migration[] = [initialSchema, fulfilment, webhooks];
