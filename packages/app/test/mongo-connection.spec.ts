/**
 * The MongoDB connection with the real driver against a stand-in mongod (mongo-wire-fake.ts): what
 * reaches the wire whatever MONGODB_URI says, how long an operation may wait on a server that stops
 * answering, and which start-up failures end the retries. No MongoDB needed.
 */
import { DomainError } from '@storefront/domain';
import { expect } from 'chai';
import { afterEach, describe, it } from 'mocha';
import { ConfigError } from '../src/config.js';
import { MongoDatabaseConnection } from '../src/mongo-connection.js';
import { recordingLogger, WARN, type LogLine } from './helpers.js';
import { startFakeMongod, type FakeMongod, type FakeMongodOptions, type ReceivedCommand } from './mongo-wire-fake.js';

const WRITES = new Set(['insert', 'update', 'delete', 'findandmodify', 'createindexes']);
const READS = new Set(['find', 'aggregate']);

describe('MongoDB connection (real driver, stand-in server)', function () {
  this.timeout(20_000);
  let fake: FakeMongod | undefined;
  let connection: MongoDatabaseConnection | undefined;

  afterEach(async () => {
    await connection?.stop();
    await fake?.close();
    connection = undefined;
    fake = undefined;
  });

  async function connect(
    server: FakeMongodOptions,
    uri: (fake: FakeMongod) => string,
    timeoutMs = 2_000,
  ): Promise<{ fake: FakeMongod; connection: MongoDatabaseConnection; lines: LogLine[] }> {
    fake = await startFakeMongod(server);
    const { logger, lines } = recordingLogger();
    connection = new MongoDatabaseConnection(uri(fake), logger, { timeoutMs, maxRetryDelayMs: 100 });
    return { fake, connection, lines };
  }

  /** A read and a write through the adapters, then what the server received for them. */
  async function readAndWrite(): Promise<ReceivedCommand[]> {
    const adapters = await connection!.ready();
    fake!.commands.length = 0;
    await adapters.customers.findByEmail('ann@example.com');
    await adapters.sessions.revoke('ses_0000000000000000', new Date());
    return [...fake!.commands];
  }

  it('writes with w=majority journaled and reads the majority-committed view on a replica set, whatever w, journal, readPreference and readConcernLevel MONGODB_URI asks for', async () => {
    const { fake, lines } = await connect({ replicaSetMembers: 3 }, (f) => f.uri('storefront', 'w=1&journal=false&readPreference=secondary&readConcernLevel=local'));
    await connection!.ready();
    const indexes = fake.commands.filter((c) => c.name === 'createindexes');
    expect(indexes, 'indexes created at start').not.to.be.empty;
    for (const command of indexes) expect(command.body['writeConcern'], 'createIndexes').to.deep.equal({ w: 'majority', j: true });

    const sent = await readAndWrite();
    expect(sent.map((c) => c.name)).to.include.members(['find', 'update']);
    for (const command of sent) {
      if (WRITES.has(command.name)) expect(command.body['writeConcern'], command.name).to.deep.equal({ w: 'majority', j: true });
      if (READS.has(command.name)) expect(command.body['readConcern'], command.name).to.deep.equal({ level: 'majority' });
    }
    const warnings = lines.filter((line) => line.level === WARN).map((line) => line.msg);
    expect(warnings).to.have.members([
      'MONGODB_URI asks for w=1; writes wait for w=majority instead (a write acknowledged by one member can be rolled back after a failover)',
      'MONGODB_URI asks for readConcernLevel=local; reads use "majority" instead (data that cannot be rolled back)',
      'MONGODB_URI asks for readPreference=secondary; reads go to the primary instead (a secondary can answer with data a write has already changed)',
    ]);
  });

  it('keeps a w from MONGODB_URI that is at least a majority of the set (w=3 of 3), and raises one that is not (w=2 of 5)', async () => {
    await connect({ replicaSetMembers: 3 }, (f) => f.uri('storefront', 'w=3'));
    for (const command of (await readAndWrite()).filter((c) => WRITES.has(c.name))) {
      expect(command.body['writeConcern'], command.name).to.deep.equal({ w: 3, j: true });
    }
    await connection!.stop();
    await fake!.close();

    const five = await connect({ replicaSetMembers: 5 }, (f) => f.uri('storefront', 'w=2'));
    for (const command of (await readAndWrite()).filter((c) => WRITES.has(c.name))) {
      expect(command.body['writeConcern'], command.name).to.deep.equal({ w: 'majority', j: true });
    }
    expect(five.lines.map((line) => line.msg)).to.include('MONGODB_URI asks for w=2; writes wait for w=majority instead (w=2 is not a majority of the 5 data-bearing members MongoDB lists)');
  });

  it('learns that it talks to a replica set from isMaster when the server has no hello command (MongoDB 4.4.0)', async () => {
    await connect({ replicaSetMembers: 3, withoutHello: true }, (f) => f.uri('storefront'));
    for (const command of (await readAndWrite()).filter((c) => READS.has(c.name))) {
      expect(command.body['readConcern'], command.name).to.deep.equal({ level: 'majority' });
    }
  });

  it('reads "local" on a standalone server, where nothing can be rolled back, and still writes with w=majority journaled', async () => {
    await connect({}, (f) => f.uri('storefront'));
    for (const command of await readAndWrite()) {
      if (WRITES.has(command.name)) expect(command.body['writeConcern'], command.name).to.deep.equal({ w: 'majority', j: true });
      if (READS.has(command.name)) expect(command.body['readConcern'], command.name).to.deep.equal({ level: 'local' });
    }
  });

  it('gives up on an operation within the time-out when the server stops answering, closes the connection it held, and serves again once the server answers', async () => {
    const TIMEOUT_MS = 300;
    const { fake } = await connect({}, (f) => f.uri('storefront'), TIMEOUT_MS);
    const adapters = await connection!.ready();
    const stalled = new Set<ReceivedCommand>();
    fake.answer = (command) => {
      if (command.name !== 'find') return undefined;
      stalled.add(command);
      return 'stall';
    };
    const started = performance.now();
    const failure = await adapters.customers.findByEmail('ann@example.com').then(
      () => null,
      (error: unknown) => error,
    );
    const elapsed = performance.now() - started;
    expect(failure).to.be.instanceOf(DomainError).with.property('code', 'database_unavailable');
    expect(stalled.size, 'the read and its one automatic retry').to.be.within(1, 2);
    // Each attempt waits one socket time-out; 10x leaves room for a loaded machine, and stays far
    // below the 10 s request time-out that an unbounded wait would run into.
    expect(elapsed, 'ms until the read failed').to.be.within(TIMEOUT_MS * 0.9, TIMEOUT_MS * 10);
    const stillOpen = () => [...stalled].filter((command) => fake.isOpen(command.connection)).length;
    const deadline = Date.now() + 2_000;
    while (stillOpen() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stillOpen(), 'connections that carried a stalled read and are still open').to.equal(0);

    fake.answer = () => undefined;
    expect(await adapters.customers.findByEmail('ann@example.com')).to.equal(null);
  });

  const refusals: Array<[string, FakeMongodOptions, (fake: FakeMongod) => string, (fake: FakeMongod) => void, RegExp]> = [
    ['a failed login (18 AuthenticationFailed)', {}, (f) => f.uri('storefront', '', 'app:not-the-password'), () => undefined, /AuthenticationFailed \(code 18\).*authSource/],
    [
      'an index that exists with other options (85 IndexOptionsConflict)',
      {},
      (f) => f.uri('storefront'),
      (f) => {
        f.answer = (c) =>
          c.name === 'createindexes' ? { ok: 0, code: 85, codeName: 'IndexOptionsConflict', errmsg: 'Index already exists with a different name: customers_by_email' } : undefined;
      },
      /IndexOptionsConflict \(code 85\).*drop that index/,
    ],
    ['a server too old for the driver (wire version 7)', { maxWireVersion: 7 }, (f) => f.uri('storefront'), () => undefined, /reports maximum wire version 7.*server version this driver supports/],
  ];
  for (const [what, server, uri, arrange, message] of refusals) {
    it(`stops retrying on ${what}: ready() rejects with a ConfigError naming MONGODB_URI, and the store stays down`, async () => {
      fake = await startFakeMongod(server);
      arrange(fake);
      const { logger } = recordingLogger();
      connection = new MongoDatabaseConnection(uri(fake), logger, { timeoutMs: 500, maxRetryDelayMs: 50 });
      const error = await connection.ready().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ConfigError);
      expect((error as ConfigError).issues.map((issue) => issue.variable)).to.deep.equal(['MONGODB_URI']);
      expect((error as ConfigError).message).to.match(/^MONGODB_URI: MongoDB refuses the store, and retrying will not change that: /).and.match(message);
      expect((error as ConfigError).message).not.to.include('not-the-password');
      const attempts = fake.commands.length;
      await new Promise((resolve) => setTimeout(resolve, 300)); // six retry delays: no attempt follows
      const after = fake.commands.slice(attempts).filter((c) => c.name !== 'endsessions'); // the client closing
      expect(after.map((c) => c.name), 'commands after giving up').to.deep.equal([]);
      expect(() => connection!.require()).to.throw(DomainError, 'not connected');
    });
  }

  it('keeps retrying while the server answers that it cannot serve yet (10107 NotWritablePrimary), and serves once it can', async () => {
    const { fake, lines } = await connect({}, (f) => f.uri('storefront'), 500);
    let refusals = 3;
    fake.answer = (c) => (c.name === 'createindexes' && refusals-- > 0 ? { ok: 0, code: 10107, codeName: 'NotWritablePrimary', errmsg: 'not primary' } : undefined);
    await connection!.ready();
    const retries = lines.filter((line) => /^store: creating the indexes of \w+ \([\w, ]+\) failed: not primary; .*; retrying$/.test(line.msg));
    expect(retries.length, lines.map((line) => line.msg).join('\n')).to.be.at.least(1);
    expect(connection!.current).not.to.equal(undefined);
  });
});
