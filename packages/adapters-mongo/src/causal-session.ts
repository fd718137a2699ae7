/**
 * Reading what won a duplicate-key race so that it is certainly seen. On a replica set every read
 * has `majority` read concern (the app's settings): it sees only majority-committed data. The winner
 * of a race on a unique index may have written to the primary a moment ago, not yet to a majority,
 * and a plain majority read right after E11000 then misses it: the loser would take the key for
 * free, or find no order where one exists.
 *
 * So the losing write and its reads run in one causally consistent session: the server's answer to
 * the refused write carries its `operationTime` (on E11000 the server sets the client's last optime
 * to its own latest one, which includes the winner's write), and the driver sends it as
 * `afterClusterTime` with the next read. A majority read with `afterClusterTime` waits until the
 * majority-committed view reaches that time (bounded by the socket time-out like any answer), so it
 * sees the winner's document, and never one that a failover could still roll back (a `local` read
 * would). On a standalone server nothing carries an operationTime, and local reads see everything.
 *
 * One session per attempt: only a session's first command goes without `afterClusterTime`, and the
 * insert that may lose the race must be that one.
 *
 * Every read in the session goes through `readIn`: the driver writes `afterClusterTime` into the
 * read concern object the operation resolved, and without one of its own that is the Db handle's,
 * shared by every read of every collection afterwards (docs/decisions.md, items 8-10 of issue 32).
 */
import { ReadConcern, type ClientSession, type ReadConcernLevel, type Collection, type Document, type MongoClient } from 'mongodb';

export async function inCausalSession<T>(client: MongoClient, work: (session: ClientSession) => Promise<T>): Promise<T> {
  const session = client.startSession({ causalConsistency: true });
  try {
    return await work(session);
  } finally {
    await session.endSession().catch(() => undefined);
  }
}

/**
 * The options of a read in `session`: a read concern object of the read's own, at the level of
 * `collection` (the durable Db handle's). "linearizable" is refused in a causally consistent session
 * (and with `afterClusterTime`); "majority" after the refused write's time is what the read needs.
 */
export function readIn(session: ClientSession, collection: Pick<Collection<Document>, 'readConcern'>): { session: ClientSession; readConcern?: ReadConcern } {
  const level = collection.readConcern?.level as ReadConcernLevel | undefined;
  if (level === undefined) return { session };
  return { session, readConcern: new ReadConcern(level === 'linearizable' ? 'majority' : level) };
}
