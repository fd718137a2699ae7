/** writeReply on a real HTTP server: the bytes a client receives for each kind of reply. */
import http from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { bytes, empty, headerValue, json, sameHeaderName, type Reply } from '../src/reply.js';
import { writeReply } from '../src/write-reply.js';

interface Raw {
  readonly status: number;
  /** [name, value] as sent, names lower-cased. */
  readonly headers: [string, string][];
  readonly body: Buffer;
}

const header = (raw: Raw, name: string): string[] => raw.headers.filter(([n]) => n === name.toLowerCase()).map(([, v]) => v);

describe('header names', () => {
  it('are compared whatever the case of their letters, and only of their letters', () => {
    expect(sameHeaderName('Content-Type', 'content-type')).to.equal(true);
    expect(sameHeaderName('X-RateLimit-Limit', 'X_RateLimit-Limit')).to.equal(false);
    // '^' and '~' (both allowed in a header name) differ by 0x20 as 'a' and 'A' do: only letters fold.
    expect(sameHeaderName('X-Mark^', 'X-Mark~')).to.equal(false);
    expect(headerValue(['ETag', '"a"', 'Cache-Control', 'no-cache'], 'cache-control')).to.equal('no-cache');
    expect(headerValue(['ETag', '"a"'], 'Cache-Control')).to.equal(undefined);
  });
});

describe('writeReply on a real HTTP server', () => {
  let server: http.Server;
  let port: number;
  let next: { reply: Reply; common: string[] } = { reply: empty(204), common: [] };

  before(async () => {
    server = http.createServer((req, res) => writeReply(res, next.reply, [...next.common], req.method === 'HEAD'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The bytes the server sends, read to the end of the connection. */
  function request(method: string, reply: Reply, common: string[] = []): Promise<Raw> {
    next = { reply, common };
    return new Promise<Raw>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = net.connect(port, '127.0.0.1', () => socket.end(`${method} /x HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
      socket.setTimeout(2_000, () => socket.destroy(new Error('no complete answer within 2 s')));
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('end', () => {
        const all = Buffer.concat(chunks);
        const split = all.indexOf('\r\n\r\n');
        const [statusLine, ...lines] = all.subarray(0, split).toString('latin1').split('\r\n');
        const headers = lines.map((line): [string, string] => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]);
        resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: all.subarray(split + 4) });
      });
    });
  }

  it('sends a value as JSON with its Content-Type and its length in bytes', async () => {
    const raw = await request('GET', json(201, { name: 'Crème brûlée', note: '✓' }));
    expect(raw.status).to.equal(201);
    expect(header(raw, 'content-type')).to.deep.equal(['application/json; charset=utf-8']);
    expect(header(raw, 'content-length')).to.deep.equal([String(raw.body.length)]);
    expect(JSON.parse(raw.body.toString('utf8'))).to.deep.equal({ name: 'Crème brûlée', note: '✓' });
  });

  it('sends bytes with the Content-Type the reply names, and only that one', async () => {
    const raw = await request('GET', bytes(200, Buffer.from('plain words'), ['Content-Type', 'text/plain']));
    expect(header(raw, 'content-type')).to.deep.equal(['text/plain']);
    expect(raw.body.toString()).to.equal('plain words');
  });

  for (const status of [204, 304]) {
    it(`sends no body, Content-Type or Content-Length with a ${status}`, async () => {
      const raw = await request('GET', { status, headers: ['ETag', '"x"'], body: { kind: 'json', value: { ignored: true } } });
      expect(raw.status).to.equal(status);
      expect(header(raw, 'content-type')).to.deep.equal([]);
      expect(header(raw, 'content-length')).to.deep.equal([]);
      expect(header(raw, 'etag')).to.deep.equal(['"x"']);
      expect(raw.body.length).to.equal(0);
    });
  }

  it("answers HEAD with the GET's Content-Length and Content-Type, and no body", async () => {
    const get = await request('GET', json(200, { items: [1, 2, 3] }));
    const head = await request('HEAD', json(200, { items: [1, 2, 3] }));
    expect(head.status).to.equal(200);
    expect(header(head, 'content-length')).to.deep.equal(header(get, 'content-length'));
    expect(header(head, 'content-type')).to.deep.equal(['application/json; charset=utf-8']);
    expect(head.body.length).to.equal(0);
  });

  it("sends the common headers first, then the reply's, in the order they were given", async () => {
    const raw = await request('GET', json(200, { id: 1 }, ['ETag', '"e"', 'Cache-Control', 'no-store']), ['X-Request-Id', 'r-1', 'X-Content-Type-Options', 'nosniff']);
    const names = raw.headers.map(([name]) => name).filter((name) => !['date', 'connection', 'keep-alive'].includes(name));
    expect(names).to.deep.equal(['x-request-id', 'x-content-type-options', 'etag', 'cache-control', 'content-type', 'content-length']);
  });

  it('throws the error Node raises for a header value with a line break, and writes nothing', async () => {
    let thrown: unknown;
    const failing = http.createServer((_req, res) => {
      try {
        writeReply(res, json(200, {}, ['X-Broken', 'a\r\nSet-Cookie: x=1']), [], false);
      } catch (error) {
        thrown = error;
      }
      res.headersSent ? res.end() : res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const res = await fetch(`http://127.0.0.1:${(failing.address() as net.AddressInfo).port}/`);
    await new Promise<void>((resolve) => failing.close(() => resolve()));
    expect(res.status).to.equal(500);
    expect(res.headers.get('set-cookie')).to.equal(null);
    expect(thrown).to.be.instanceOf(Error);
  });
});
