/**
 * Every driver error class that can end a store operation, made with the driver's own classes the
 * way the driver makes them (mongodb/src/bulk/common.ts, cmap/errors.ts, error.ts), and what the
 * store makes of it: `database_unavailable` for "unreachable, or no answer in time",
 * `service_unavailable` for a pool with no free connection in time, a duplicate key
 * for the repository to judge, and anything else left as it is (a 500 with its cause in the logs).
 */
import { createRequire } from 'node:module';
import { isDomainError, type DomainError } from '@storefront/domain';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import {
  MongoBulkWriteError,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoServerSelectionError,
  MongoStalePrimaryError,
  MongoWriteConcernError,
  type BulkWriteOperationError,
  type BulkWriteResult,
  type WriteConcernError,
  type WriteError,
} from 'mongodb';
import { toDomainError } from '../src/index.js';
import { isDuplicateKey } from '../src/database-errors.js';

const require = createRequire(import.meta.url);
/** The pool's errors are not exported by the driver's entry point (they reach callers all the same). */
const poolErrors = require('mongodb/lib/cmap/errors.js') as {
  WaitQueueTimeoutError: new (message: string, address: string) => Error;
  PoolClosedError: new (pool: { address: string }) => Error;
  PoolClearedError: new (pool: { address: string; serverError?: Error }, message?: string) => Error;
};

/** Classes of bulk/common.ts that the driver exports as types only. */
const bulk = require('mongodb/lib/bulk/common.js') as {
  BulkWriteResult: new (bulkResult: object, ordered: boolean) => BulkWriteResult;
  WriteError: new (error: BulkWriteOperationError) => WriteError;
  WriteConcernError: new (error: { code: number; errmsg: string }) => WriteConcernError;
};

/** What bulk/common.ts hands MongoBulkWriteError as the batch's result. */
function aBulkResult(writeErrors: WriteError[] = []): BulkWriteResult {
  return new bulk.BulkWriteResult({ ok: 1, writeErrors, writeConcernErrors: [], insertedIds: [], nInserted: 0, nUpserted: 0, nMatched: 0, nModified: 0, nRemoved: 0, upserted: [] }, false);
}

function aWriteError(code: number, errmsg: string, index = 0): WriteError {
  return new bulk.WriteError({ index, code, errmsg } as BulkWriteOperationError);
}

/** How handleWriteError reports the writes the server refused. */
function refusedWrites(...writeErrors: WriteError[]): MongoBulkWriteError {
  return new MongoBulkWriteError({ message: writeErrors[0]!.errmsg!, code: writeErrors[0]!.code, writeErrors }, aBulkResult(writeErrors));
}

const unavailable = (error: unknown): boolean => isDomainError(toDomainError(error), 'database_unavailable');
const dupKey = (index: string, n = 0) => aWriteError(11000, `E11000 duplicate key error collection: t.products index: ${index} dup key: { nameKey: "soup${n}" }`, n);

describe('driver errors as the store reports them', () => {
  describe('a bulk write (the menu import) that failed', () => {
    it('is database_unavailable when a lost connection stopped the batch (MongoBulkWriteError wrapping MongoNetworkError)', () => {
      const cause = new MongoNetworkError('connection 4 to 10.1.2.3:27017 closed');
      const error = new MongoBulkWriteError(cause, aBulkResult());
      expect(error).to.not.be.instanceOf(MongoNetworkError);
      expect(unavailable(error)).to.equal(true);
      expect(unavailable(new MongoBulkWriteError(new MongoNetworkTimeoutError('timed out'), aBulkResult()))).to.equal(true);
    });

    it('is database_unavailable when no server could be selected for the batch', () => {
      const cause = new MongoServerSelectionError('Server selection timed out after 2000 ms', { type: 'Unknown' } as never);
      expect(unavailable(new MongoBulkWriteError(cause, aBulkResult()))).to.equal(true);
    });

    it('is database_unavailable when its write concern timed out or the primary shut down', () => {
      // thrownError instanceof MongoWriteConcernError: the message and code of the write concern error.
      expect(unavailable(new MongoBulkWriteError({ message: 'waiting for replication timed out', code: 64 }, aBulkResult()))).to.equal(true);
      // handleWriteError: the WriteConcernError itself, its code kept as `err.code`.
      const shutdown = new MongoBulkWriteError(new bulk.WriteConcernError({ code: 91, errmsg: 'interrupted at shutdown' }), aBulkResult());
      expect(unavailable(shutdown)).to.equal(true);
    });

    it('is database_unavailable when the primary stepped down between its writes, whichever write reports it', () => {
      const error = refusedWrites(dupKey('products_by_name_key'), aWriteError(11602, 'operation was interrupted', 1));
      expect(unavailable(error)).to.equal(true);
      expect(isDuplicateKey(error)).to.equal(false);
    });

    it('is a duplicate key when every write it lost was one, and no longer one when another error is among them', () => {
      const duplicates = refusedWrites(dupKey('products_by_name_key'), dupKey('products_by_name_key', 1));
      expect(isDuplicateKey(duplicates)).to.equal(true);
      expect(toDomainError(duplicates)).to.equal(duplicates);
      const mixed = refusedWrites(dupKey('products_by_name_key'), aWriteError(121, 'Document failed validation', 1));
      expect(isDuplicateKey(mixed)).to.equal(false);
      expect(toDomainError(mixed)).to.equal(mixed);
    });
  });

  describe('a single operation that failed', () => {
    it('is database_unavailable when its write concern timed out (MongoWriteConcernError 64)', () => {
      const error = new MongoWriteConcernError({ ok: 1, n: 1, writeConcernError: { code: 64, errmsg: 'waiting for replication timed out' } } as never);
      expect(unavailable(error)).to.equal(true);
    });

    it('is service_unavailable with a retry hint of 1 s when the pool had no free connection in time', () => {
      const error = toDomainError(new poolErrors.WaitQueueTimeoutError('Timed out while checking out a connection from connection pool', '10.1.2.3:27017'));
      expect(isDomainError(error, 'service_unavailable')).to.equal(true);
      expect((error as DomainError).retryAfterSeconds).to.equal(1);
    });

    it('is database_unavailable when the pool was closed or cleared', () => {
      expect(unavailable(new poolErrors.PoolClosedError({ address: '10.1.2.3:27017' }))).to.equal(true);
      expect(unavailable(new poolErrors.PoolClearedError({ address: '10.1.2.3:27017' }))).to.equal(true);
    });

    it('is database_unavailable when the primary it reached turned out to be stale', () => {
      expect(unavailable(new MongoStalePrimaryError('primary marked stale due to electionId/setVersion mismatch'))).to.equal(true);
    });
  });
});
