/**
 * A stand-in for mongod that speaks just enough of the wire protocol (OP_QUERY handshake, OP_MSG
 * commands) for the real driver to connect to it, so that tests can see what the driver sends and
 * make the server fail in ways a real one does: refuse a login (18), answer an index conflict (85),
 * report an old wire version, or accept connections and then never answer. No MongoDB needed.
 *
 * What it models of a server:
 * - unique indexes, for `insert` only: it remembers the `_id` and the unique index keys (from the
 *   createIndexes it was sent) of every document inserted, and refuses a second one with the
 *   server's E11000 write error (`index: <name> dup key: { … }`, with keyPattern and keyValue);
 * - on a replica set (`replicaSetMembers`), an `operationTime` and `$clusterTime` on every answer,
 *   from a clock that each write moves on, so that causally consistent sessions have one to send.
 *
 * What it does NOT model (a test that needs it answers it through `answer`):
 * - stored data: a find, aggregate or listIndexes answers an empty batch, an update or findAndModify matches
 *   nothing, a delete deletes nothing, and none of them frees or takes a unique key (so an upsert
 *   or an update never answers E11000 here, and a deleted document's key stays taken);
 * - read concern: every read is answered the same whatever its level or afterClusterTime;
 * - write concern, index options (partial, TTL, collation: keys compare as the BSON values sent),
 *   array fields in a unique index (multikey), transactions, and every command not named below.
 */
import net from 'node:net';
import { BSON, Long, ObjectId, Timestamp, type Document } from 'mongodb';

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
const MORE_TO_COME = 1 << 1;
const CHECKSUM_PRESENT = 1 << 0;

/** A command as the driver sent it: its name (first key, lower-cased) and its body. */
export interface ReceivedCommand {
  readonly name: string;
  readonly body: Document;
  /** The connection it came on (see `isOpen`). */
  readonly connection: number;
}

/** An answer: a document, `'stall'` to never answer (the connection stays open), or `'hang-up'` to close the connection. */
export type Answer = Document | 'stall' | 'hang-up';

export interface FakeMongodOptions {
  /** A replica set member of a set named `rs0` listing `members` hosts (itself first). Default: standalone. */
  readonly replicaSetMembers?: number;
  /** Reported wire version; 21 is MongoDB 7.0. */
  readonly maxWireVersion?: number;
  /** Answer the `hello` command with CommandNotFound, as MongoDB 4.4.0 and 4.4.1 do (isMaster works). */
  readonly withoutHello?: boolean;
}

export interface FakeMongod {
  readonly port: number;
  /** `mongodb://127.0.0.1:<port>/<database>?directConnection=true` plus `query`. */
  uri(database: string, query?: string, credentials?: string): string;
  /** Every command received after the handshake, in order. */
  readonly commands: ReceivedCommand[];
  /** Overrides the default answer; return undefined to keep it. Set by tests. */
  answer: (command: ReceivedCommand) => Answer | undefined;
  /** The cluster time now (replica set only): at or after the last write's operationTime. */
  readonly clusterTime: Timestamp;
  /** Whether the connection with this number is still open. */
  isOpen(connection: number): boolean;
  close(): Promise<void>;
}

export async function startFakeMongod(options: FakeMongodOptions = {}): Promise<FakeMongod> {
  const sockets = new Map<number, net.Socket>();
  let connectionIds = 0;
  let port = 0;
  const uniqueKeys = new UniqueKeys();
  /** The cluster time: each write moves it on by one increment. */
  let clock = 0;
  const fake: FakeMongod = {
    get port() {
      return port;
    },
    uri: (database, query = '', credentials = '') =>
      `mongodb://${credentials === '' ? '' : `${credentials}@`}127.0.0.1:${port}/${database}?directConnection=true${query === '' ? '' : `&${query}`}`,
    commands: [],
    get clusterTime() {
      return timeAt(clock);
    },
    answer: () => undefined,
    isOpen: (connection) => sockets.has(connection),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets.values()) socket.destroy();
        server.close(() => resolve());
      }),
  };

  const hello = (connectionId: number, request: Document): Document => {
    const self = `127.0.0.1:${port}`;
    const members = options.replicaSetMembers ?? 0;
    return {
      helloOk: true,
      ismaster: true,
      isWritablePrimary: true,
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100_000,
      localTime: new Date(),
      logicalSessionTimeoutMinutes: 30,
      connectionId,
      minWireVersion: 0,
      maxWireVersion: options.maxWireVersion ?? 21,
      readOnly: false,
      ...(members > 0
        ? {
            setName: 'rs0',
            setVersion: 1,
            electionId: new ObjectId('7fffffff0000000000000001'),
            primary: self,
            me: self,
            hosts: [self, ...Array.from({ length: members - 1 }, (_, i) => `127.0.0.1:${65_000 + i}`)],
          }
        : {}),
      ...(typeof request['saslSupportedMechs'] === 'string' ? { saslSupportedMechs: ['SCRAM-SHA-256'] } : {}),
      ok: 1,
    };
  };

  const defaultAnswer = (command: ReceivedCommand): Document => {
    const collection = String(command.body[Object.keys(command.body)[0]!]);
    const database = String(command.body['$db'] ?? 'test');
    switch (command.name) {
      case 'saslstart':
      case 'authenticate':
        return { ok: 0, code: 18, codeName: 'AuthenticationFailed', errmsg: 'Authentication failed.' };
      case 'createindexes':
        uniqueKeys.define(`${database}.${collection}`, command.body['indexes']);
        return { ok: 1, numIndexesBefore: 1, numIndexesAfter: 2, createdCollectionAutomatically: true };
      case 'insert':
        return uniqueKeys.insert(`${database}.${collection}`, Array.isArray(command.body['documents']) ? command.body['documents'] : []);
      case 'update':
        return { ok: 1, n: 1, nModified: 0 };
      case 'delete':
        return { ok: 1, n: 0 };
      case 'find':
      case 'aggregate':
      case 'listindexes':
        return { ok: 1, cursor: { id: Long.fromNumber(0), ns: `${database}.${collection}`, firstBatch: [] } };
      case 'findandmodify':
        return { ok: 1, value: null, lastErrorObject: { n: 0, updatedExisting: false } };
      default:
        return { ok: 1 };
    }
  };

  /** What a replica set member adds to every answer; nothing on a standalone server. */
  const clusterTime = (): Document => {
    if ((options.replicaSetMembers ?? 0) === 0) return {};
    const time = timeAt(clock);
    return { operationTime: time, $clusterTime: { clusterTime: time, signature: { hash: Buffer.alloc(20), keyId: Long.fromNumber(0) } } };
  };

  const server = net.createServer((socket) => {
    const connectionId = ++connectionIds;
    sockets.set(connectionId, socket);
    let buffered = Buffer.alloc(0);
    socket.on('close', () => sockets.delete(connectionId));
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 4 && buffered.length >= buffered.readInt32LE(0)) {
        const length = buffered.readInt32LE(0);
        const message = buffered.subarray(0, length);
        buffered = buffered.subarray(length);
        const requestId = message.readInt32LE(4);
        const opCode = message.readInt32LE(12);
        if (opCode === OP_QUERY) {
          // The handshake: flags, "admin.$cmd\0", skip, return, then the command document.
          const nameEnd = message.indexOf(0, 20);
          const body = BSON.deserialize(message.subarray(nameEnd + 9)) as Document;
          socket.write(opReply(requestId, { ...hello(connectionId, body) }));
        } else if (opCode === OP_MSG) {
          const flags = message.readUInt32LE(16);
          const body = opMsgBody(message, flags);
          const name = Object.keys(body)[0]!.toLowerCase();
          if (name === 'hello' && options.withoutHello === true) {
            socket.write(opMsg(requestId, { ok: 0, code: 59, codeName: 'CommandNotFound', errmsg: "no such command: 'hello'" }));
            continue;
          }
          if (name === 'hello' || name === 'ismaster') {
            socket.write(opMsg(requestId, hello(connectionId, body)));
            continue;
          }
          const command: ReceivedCommand = { name, body, connection: connectionId };
          fake.commands.push(command);
          if (WRITES.has(name)) clock += 1;
          const answer = fake.answer(command) ?? defaultAnswer(command);
          if (answer === 'hang-up') {
            socket.destroy();
            return;
          }
          if (answer !== 'stall' && (flags & MORE_TO_COME) === 0) socket.write(opMsg(requestId, { ...answer, ...clusterTime() }));
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
  return fake;
}

function timeAt(clock: number): Timestamp {
  return new Timestamp({ t: 1_700_000_000, i: clock + 1 });
}

const WRITES = new Set(['insert', 'update', 'delete', 'findandmodify', 'createindexes']);

/** The keys of unique indexes taken by inserted documents, per namespace (see the file's note). */
class UniqueKeys {
  private readonly indexes = new Map<string, { name: string; key: Document }[]>();
  private readonly taken = new Set<string>();

  define(namespace: string, specs: unknown): void {
    const unique = (Array.isArray(specs) ? (specs as Document[]) : []).filter((spec) => spec['unique'] === true);
    const known = this.indexesOf(namespace);
    for (const spec of unique) if (!known.some((index) => index.name === spec['name'])) known.push({ name: String(spec['name']), key: spec['key'] as Document });
  }

  /** An ordered insert: the documents before the first duplicate are inserted, as a server does. */
  insert(namespace: string, documents: readonly Document[]): Document {
    for (const [i, document] of documents.entries()) {
      const keys = this.indexesOf(namespace).map((index) => ({ index, value: Object.fromEntries(Object.keys(index.key).map((field) => [field, document[field] ?? null])) }));
      const duplicate = keys.find(({ index, value }) => this.taken.has(entry(namespace, index.name, value)));
      if (duplicate !== undefined) {
        const { index, value } = duplicate;
        const errmsg = `E11000 duplicate key error collection: ${namespace} index: ${index.name} dup key: ${shellForm(value)}`;
        return { ok: 1, n: i, writeErrors: [{ index: i, code: 11000, errmsg, keyPattern: index.key, keyValue: value }] };
      }
      for (const { index, value } of keys) this.taken.add(entry(namespace, index.name, value));
    }
    return { ok: 1, n: documents.length };
  }

  private indexesOf(namespace: string): { name: string; key: Document }[] {
    let known = this.indexes.get(namespace);
    if (known === undefined) this.indexes.set(namespace, (known = [{ name: '_id_', key: { _id: 1 } }]));
    return known;
  }
}

function entry(namespace: string, index: string, value: Document): string {
  return `${namespace}\0${index}\0${Buffer.from(BSON.serialize(value)).toString('hex')}`;
}

/** A key as the server prints it in E11000: `{ field: "text", n: 1 }`. */
function shellForm(value: Document): string {
  const fields = Object.entries(value).map(([field, v]) => `${field}: ${typeof v === 'string' ? JSON.stringify(v) : v instanceof ObjectId ? `ObjectId('${v.toHexString()}')` : String(v)}`);
  return `{ ${fields.join(', ')} }`;
}

/** The command of an OP_MSG: its section 0 document, with each document sequence (section 1) added under its name. */
function opMsgBody(message: Buffer, flags: number): Document {
  const end = message.length - ((flags & CHECKSUM_PRESENT) !== 0 ? 4 : 0);
  let offset = 20;
  let body: Document = {};
  const sequences: Record<string, Document[]> = {};
  while (offset < end) {
    const kind = message.readUInt8(offset);
    offset += 1;
    const size = message.readInt32LE(offset);
    if (kind === 0) {
      body = BSON.deserialize(message.subarray(offset, offset + size)) as Document;
    } else {
      const nameEnd = message.indexOf(0, offset + 4);
      const identifier = message.subarray(offset + 4, nameEnd).toString('utf8');
      const documents: Document[] = [];
      for (let at = nameEnd + 1; at < offset + size; ) {
        const docSize = message.readInt32LE(at);
        documents.push(BSON.deserialize(message.subarray(at, at + docSize)) as Document);
        at += docSize;
      }
      sequences[identifier] = documents;
    }
    offset += size;
  }
  return { ...body, ...sequences };
}

let responseIds = 0;

function header(length: number, responseTo: number, opCode: number): Buffer {
  const head = Buffer.alloc(16);
  head.writeInt32LE(length, 0);
  head.writeInt32LE(++responseIds, 4);
  head.writeInt32LE(responseTo, 8);
  head.writeInt32LE(opCode, 12);
  return head;
}

function opReply(responseTo: number, document: Document): Buffer {
  const bson = BSON.serialize(document);
  const fields = Buffer.alloc(20); // responseFlags, cursorID (8), startingFrom, numberReturned
  fields.writeInt32LE(1, 16);
  return Buffer.concat([header(16 + 20 + bson.length, responseTo, OP_REPLY), fields, bson]);
}

function opMsg(responseTo: number, document: Document): Buffer {
  const bson = BSON.serialize(document);
  const flagsAndKind = Buffer.alloc(5); // flagBits 0, section kind 0
  return Buffer.concat([header(16 + 5 + bson.length, responseTo, OP_MSG), flagsAndKind, bson]);
}
