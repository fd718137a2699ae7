/**
 * Positions are given by the readers of a list (migration 3): before a page of a customer's orders
 * or of the kitchen's queue is read, the orders stored since the last reader are numbered, a batch
 * per statement (each its own short transaction under the list's lock), until none is left.
 * Placements therefore never wait on each other; a reader numbers what arrived before it.
 */
import type pg from 'pg';
import { retryOnConflict } from './retry.js';

/** Orders numbered per statement: the list's lock is held for one batch at a time. */
const BATCH = 500;
/**
 * Batches per read at most: a reader never chases placements arriving faster than it numbers them
 * (what it leaves is numbered by the next one). 40 batches are 20,000 orders.
 */
const MAX_BATCHES = 40;

export function numberKitchenLists(pool: pg.Pool): Promise<void> {
  return numberAll(pool, 'SELECT storefront_number_kitchen($1) AS numbered', []);
}

export function numberCustomerList(pool: pg.Pool, customerId: string): Promise<void> {
  return numberAll(pool, 'SELECT storefront_number_customer($2, $1) AS numbered', [customerId]);
}

async function numberAll(pool: pg.Pool, text: string, values: unknown[]): Promise<void> {
  for (let batches = 0; batches < MAX_BATCHES; batches++) {
    const result = await retryOnConflict(() => pool.query<{ numbered: number }>(text, [BATCH, ...values]));
    if ((result.rows[0]?.numbered ?? 0) < BATCH) return;
  }
}
