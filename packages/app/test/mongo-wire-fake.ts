/**
 * A stand-in for mongod that speaks just enough of the wire protocol (OP_QUERY handshake, OP_MSG
 * commands) for the real driver to connect to it, so that tests can see what the driver sends and
 * make the server fail in ways a real one does: refuse a login (18), answer an index conflict (85),
 * report an old wire version, or accept connections and then never answer. It stores nothing: a
 * find answers an empty batch, a write answers "done". No MongoDB needed.
 */
import net from 'node:net';
import { BSON, Long, ObjectId, type Document } from 'mongodb';

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

/** An answer: a document, or `'stall'` to never answer (the connection stays open). */
export type Answer = Document | 'stall';

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
  /** Whether the connection with this number is still open. */
  isOpen(connection: number): boolean;
  close(): Promise<void>;
}

export async function startFakeMongod(options: FakeMongodOptions = {}): Promise<FakeMongod> {
  const sockets = new Map<number, net.Socket>();
  let connectionIds = 0;
  let port = 0;
  const fake: FakeMongod = {
    get port() {
      return port;
    },
    uri: (database, query = '', credentials = '') =>
      `mongodb://${credentials === '' ? '' : `${credentials}@`}127.0.0.1:${port}/${database}?directConnection=true${query === '' ? '' : `&${query}`}`,
    commands: [],
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
        return { ok: 1, numIndexesBefore: 1, numIndexesAfter: 2, createdCollectionAutomatically: true };
      case 'insert':
        return { ok: 1, n: Array.isArray(command.body['documents']) ? command.body['documents'].length : 1 };
      case 'update':
        return { ok: 1, n: 1, nModified: 0 };
      case 'delete':
        return { ok: 1, n: 0 };
      case 'find':
      case 'aggregate':
        return { ok: 1, cursor: { id: Long.fromNumber(0), ns: `${database}.${collection}`, firstBatch: [] } };
      case 'findandmodify':
        return { ok: 1, value: null, lastErrorObject: { n: 0, updatedExisting: false } };
      default:
        return { ok: 1 };
    }
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
          const answer = fake.answer(command) ?? defaultAnswer(command);
          if (answer !== 'stall' && (flags & MORE_TO_COME) === 0) socket.write(opMsg(requestId, answer));
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
  return fake;
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
