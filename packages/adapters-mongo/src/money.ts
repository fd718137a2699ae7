/**
 * Money as stored: every amount is whole minor units as BSON int64, whatever its size: a plain
 * number is written as int32 or double by size, so one field would hold two types that queries and
 * indexes compare across. Reading takes any numeric type (older documents hold int32 or double; the
 * driver hands int64 back as a number below 2^53, which every amount is); the next write stores
 * int64.
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
