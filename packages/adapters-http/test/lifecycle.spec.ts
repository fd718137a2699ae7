/**
 * The outermost middleware on its own, in a Koa app served on a real port: what a client gets when
 * the reply cannot be written, and when a request outlives its time allowance.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import Koa from 'koa';
import { after, before, describe, it } from 'mocha';
import type { AccessEntry, HttpLogger } from '../src/app.js';
import { lifecycle } from '../src/middleware/lifecycle.js';
import { send, setHeader } from '../src/reply.js';

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

function get(port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

describe('lifecycle middleware', () => {
  const errors: { fields: Record<string, unknown>; message: string }[] = [];
  const access: AccessEntry[] = [];
  const logger: HttpLogger = { info: () => {}, warn: () => {}, error: (fields, message) => errors.push({ fields, message }) };
  let server: http.Server;
  let port: number;
  // The slow handler waits for the test to release it, after the client has its answer.
  let release: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let lateHandlerFinished: () => void;
  const lateHandler = new Promise<void>((resolve) => (lateHandlerFinished = resolve));

  before(async () => {
    const app = new Koa();
    app.use(lifecycle(logger, (entry) => access.push(entry), 100));
    app.use(async (ctx) => {
      if (ctx.path === '/unwritable') {
        // Node refuses a header value with a line break (header injection): the reply cannot be written.
        setHeader(ctx, 'X-Broken', 'a\r\nSet-Cookie: x=1');
        send(ctx, 200, { ok: true });
      } else if (ctx.path === '/slow') {
        await released;
        setHeader(ctx, 'X-Late', 'yes');
        send(ctx, 200, { late: true });
        lateHandlerFinished();
      }
    });
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers a reply Node refuses to write with a JSON 500 carrying the request id, logs it once, and keeps serving', async () => {
    const answer = await get(port, '/unwritable');
    expect(answer.status).to.equal(500);
    expect(JSON.parse(answer.body)).to.deep.equal({ error: 'internal_error', message: 'The operation failed on our side. It is safe to retry.' });
    expect(answer.headers['x-broken']).to.equal(undefined);
    expect(answer.headers['set-cookie']).to.equal(undefined);
    expect(answer.headers['x-request-id']).to.be.a('string').and.not.equal('');
    const logged = errors.filter((entry) => entry.message === 'response could not be written');
    expect(logged).to.have.length(1);
    expect(logged[0]!.fields['req_id']).to.equal(answer.headers['x-request-id']);
    expect(access.at(-1)).to.include({ path: '/unwritable', status: 500 });
    expect((await get(port, '/nowhere')).status).to.equal(404);
  });

  it('answers a request still running after its allowance with 503 and Retry-After, and never sends what the handler does later', async () => {
    const answer = await get(port, '/slow');
    release();
    expect(answer.status).to.equal(503);
    expect(answer.headers['retry-after']).to.equal('1');
    expect(JSON.parse(answer.body)).to.include({ error: 'service_unavailable' });
    await lateHandler;
    await new Promise((resolve) => setImmediate(resolve));
    expect(answer.headers['x-late']).to.equal(undefined);
    expect(access.filter((entry) => entry.path === '/slow')).to.have.length(1);
  });
});
