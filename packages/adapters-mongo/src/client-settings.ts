/**
 * How this service talks to MongoDB, whatever MONGODB_URI says: the production settings used by the
 * app's connection and every MongoDB test's client. Every stage of an operation waits at most
 * MONGODB_TIMEOUT_MS (per-stage options: the driver's `timeoutMS` is a deprecated no-op from 7.8);
 * writes wait for a journaled majority and reads see the majority-committed view, set on the Db
 * handle so a URI can ask for more but never less (docs/decisions.md, "MongoDB client settings").
 */
import { MongoClient, MongoServerError, ReadConcern, ReadPreference, type Db, type DbOptions, type Document, type MongoClientOptions, type ReadConcernLevel, type W } from 'mongodb';

export const DEFAULT_MONGODB_TIMEOUT_MS = 2_000;

export function mongoClientOptions(timeoutMs: number): MongoClientOptions {
  return {
    appName: 'storefront',
    serverSelectionTimeoutMS: timeoutMs,
    waitQueueTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    socketTimeoutMS: timeoutMs,
    // One automatic retry of a write or read that failed on a lost primary (replica sets only).
    retryWrites: true,
    retryReads: true,
  };
}

/** What the server's `hello` answer says about the deployment. */
export interface Deployment {
  /** A replica set member or a mongos: writes replicate, so a write can be rolled back. */
  readonly replicated: boolean;
  /** Data-bearing members `hello` lists (hosts and passives; hidden members are not listed). 0 on mongos. */
  readonly members: number;
}

export function deploymentOf(hello: Document): Deployment {
  const count = (field: string): number => (Array.isArray(hello[field]) ? (hello[field] as unknown[]).length : 0);
  const sharded = hello['msg'] === 'isdbgrid';
  return { replicated: sharded || typeof hello['setName'] === 'string', members: sharded ? 0 : count('hosts') + count('passives') };
}

/** What the server `client` is connected to says about the deployment. */
export async function deploymentOn(client: MongoClient): Promise<Deployment> {
  return deploymentOf(await helloOf(client));
}

/** The server's `hello` answer; `isMaster` on a 4.4.0 or 4.4.1 server, which has no `hello` command. */
async function helloOf(client: MongoClient): Promise<Document> {
  const admin = client.db('admin');
  return admin.command({ hello: 1 }).catch((error: unknown) => {
    if (error instanceof MongoServerError && error.code === 59) return admin.command({ isMaster: 1 }); // CommandNotFound
    throw error;
  });
}

/** The settings the URI asked for, as the driver parsed them (`client.options`). */
export interface UriSettings {
  readonly writeConcern?: { readonly w?: W | string; readonly wtimeoutMS?: number } | undefined;
  readonly readConcern?: { readonly level?: ReadConcernLevel | string } | undefined;
  readonly readPreference?: { readonly mode?: string } | undefined;
}

export interface DurableSettings {
  readonly options: DbOptions;
  /** One sentence per URI setting that was raised, for the log. */
  readonly raised: readonly string[];
}

/**
 * "Upward" for w: 0 and 1 < "majority". A number n ≥ 2 is more than "majority" only when it is at
 * least a majority of the set's data-bearing members, so it is kept only on a replica set where it
 * is (counted from `hello`); elsewhere, and for a tag name (which cannot be compared), "majority".
 */
export function writeAcknowledgement(w: W | string | undefined, deployment: Deployment): { w: W; raised?: string } {
  if (w === undefined || w === 'majority') return { w: 'majority' };
  if (typeof w === 'number' && w >= 2 && deployment.replicated && deployment.members > 0 && w >= Math.floor(deployment.members / 2) + 1) {
    return { w };
  }
  const why =
    typeof w !== 'number'
      ? `the tag set w=${w} cannot be compared with a majority`
      : w < 2
        ? `a write acknowledged by ${w === 0 ? 'no' : 'one'} member can be rolled back after a failover`
        : deployment.members > 0
          ? `w=${w} is not a majority of the ${deployment.members} data-bearing members MongoDB lists`
          : `MongoDB lists no replica set members to count w=${w} against`;
  return { w: 'majority', raised: `MONGODB_URI asks for w=${w}; writes wait for w=majority instead (${why})` };
}

/** Majority-committed reads where a write can be rolled back; "linearizable" (stronger) is kept. */
export function readLevel(level: string | undefined, deployment: Deployment): { level: ReadConcernLevel; raised?: string } {
  // A standalone server has nothing to roll back: its latest data is its durable data.
  if (!deployment.replicated) return { level: 'local' };
  if (level === 'linearizable' || level === 'majority') return { level };
  if (level === undefined) return { level: 'majority' };
  return { level: 'majority', raised: `MONGODB_URI asks for readConcernLevel=${level}; reads use "majority" instead (data that cannot be rolled back)` };
}

export function durableSettings(uri: UriSettings, deployment: Deployment): DurableSettings {
  const write = writeAcknowledgement(uri.writeConcern?.w, deployment);
  const read = readLevel(uri.readConcern?.level, deployment);
  const mode = uri.readPreference?.mode ?? 'primary';
  const wtimeoutMS = uri.writeConcern?.wtimeoutMS;
  const raised = [write.raised, read.raised].filter((note): note is string => note !== undefined);
  if (mode !== 'primary') raised.push(`MONGODB_URI asks for readPreference=${mode}; reads go to the primary instead (a secondary can answer with data a write has already changed)`);
  return {
    options: {
      writeConcern: { w: write.w, journal: true, ...(wtimeoutMS === undefined ? {} : { wtimeoutMS }) },
      // A new instance: ReadPreference.fromOptions copies URI tags onto an instance it is given.
      readPreference: new ReadPreference('primary'),
      readConcern: new ReadConcern(read.level),
    },
    raised,
  };
}

/** The database handle every adapter uses: the URI's database (or `database`) with the durable settings. */
export function durableDb(client: MongoClient, deployment: Deployment, database?: string): { db: Db; raised: readonly string[] } {
  const { options, raised } = durableSettings(client.options, deployment);
  return { db: client.db(database, options), raised };
}

/**
 * Why the driver or MongoDB would refuse `uri` before any connection, or undefined when neither
 * would: the driver parses the string (options, hosts, ports) and the database name must be one
 * MongoDB accepts (docs "MongoDB Limits and Thresholds", names on Unix and Linux).
 */
export function mongoUriProblem(uri: string): string | undefined {
  let client: MongoClient;
  try {
    client = new MongoClient(uri, mongoClientOptions(DEFAULT_MONGODB_TIMEOUT_MS));
  } catch (error) {
    return `the MongoDB driver cannot read it: ${withoutSecrets(uri, (error as Error).message)}`;
  }
  const name = client.options.dbName;
  if (/[/\\. "$\0]/.test(name)) return `it names the database ${JSON.stringify(name)}, and a MongoDB database name cannot contain / \\ . " $, a space or a null character`;
  if (Buffer.byteLength(name) >= 64) return `it names a database of ${Buffer.byteLength(name)} bytes, and a MongoDB database name must be shorter than 64 bytes`;
  return undefined;
}

/** A driver message never repeats the URI's password in ours. */
function withoutSecrets(uri: string, message: string): string {
  const password = /^mongodb(?:\+srv)?:\/\/[^:@/]*:([^@/]*)@/.exec(uri)?.[1];
  return password === undefined || password === '' ? message : message.split(password).join('***');
}
