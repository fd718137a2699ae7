/**
 * Money as stored: every amount (a price, an option's price delta, a line's unit price and total,
 * an order's amount) is a whole number of minor units written as BSON int64 ("long"), whatever its
 * size. A plain JavaScript number would be written as int32 below 2^31 and as double above, so one
 * field would hold two types, and a query or an index on it would compare across them. int64 holds
 * every amount the domain allows exactly (it caps amounts well below 2^53).
 *
 * Reading takes any numeric type: documents written before this rule hold int32 or double, and the
 * driver hands int64 back as a number (promoteLongs) unless it is beyond 2^53, which no amount is.
 * The next write of such a document (an import of the same menu) stores int64.
 */
import { Long } from 'mongodb';

/** An amount as a document field: int64 when written, any numeric BSON type when read. */
export type StoredMoney = Long | number;

export function toStoredMoney(amount: number): Long {
  return Long.fromNumber(amount);
}

export function fromStoredMoney(stored: StoredMoney): number {
  return typeof stored === 'number' ? stored : stored.toNumber();
}
