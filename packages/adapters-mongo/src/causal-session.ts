/**
 * Reading what won a duplicate-key race so that it is certainly seen: the losing write and its
 * reads run in one causally consistent session (one per attempt, the insert its first command), so
 * a majority read waits for the winner's write. Every read goes through `readIn`, else the driver
 * writes `afterClusterTime` into the Db handle's shared read concern (docs/decisions.md, "MongoDB:
 * the loser of a duplicate-key race reads the winner" and "Issue 32, items 8, 9, 10").
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
