/**
 * The lifecycle on its own, on a real port, with hand-made handlers: what a client receives when a
 * reply cannot be written, when a request outlives its allowance, and what becomes of a stream.
 * Everything is read off the raw connection, so a byte sent late would be seen.
 */
import http from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import { after, afterEach, before, describe, it } from 'mocha';
import type { AccessEntry, HttpLogger } from '../src/app-types.js';
import { Lifecycle, type InFlight } from '../src/lifecycle.js';
import { json, stream, type Reply } from '../src/reply.js';
import { OpenStreams, type StreamEnd, type StreamSink } from '../src/sse/streamed-replies.js';

const ALLOWANCE_MS = 150;

/** What a handler under test does with a request. */
type Handle = (run: InFlight) => Promise<Reply>;

function inFlight(req: http.IncomingMessage, res: http.ServerResponse, requestId: string): InFlight {
  const controller = new AbortController();
  return {
    req,
    res,
    requestId,
    startedAt: performance.now(),
    route: undefined,
    rateLimit: undefined,
    method: req.method ?? 'GET',
    path: req.url ?? '/',
    header: (name) => req.headers[name] as string | undefined,
    client: '127.0.0.1',
    caller: undefined,
    signal: controller.signal,
    abort: () => controller.abort(),
  };
}

/** Sends one request on a fresh connection and collects every byte until `until` resolves or the server closes. */
function rawExchange(port: number, path: string, until: (text: () => string) => Promise<void>): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
    until(() => text).then(() => socket.end(), reject);
  });
}

const eventually = async (check: () => boolean, ms = 2_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('not within 2 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('Lifecycle', () => {
  const errors: { fields: Record<string, unknown>; message: string }[] = [];
  const access: AccessEntry[] = [];
  const logger: HttpLogger = { info: () => {}, warn: () => {}, error: (fields, message) => errors.push({ fields, message }) };
  const streams = new OpenStreams();
  const lifecycle = new Lifecycle(logger, (entry) => access.push(entry), ALLOWANCE_MS, streams, '"default";q=10;w=60');
  const handlers = new Map<string, Handle>();
  let server: http.Server;
  let port: number;

  before(async () => {
    server = http.createServer((req, res) => {
      const run = inFlight(req, res, lifecycle.requestId(req.headers['x-request-id']));
      const pending = lifecycle.start(run);
      handlers
        .get(req.url ?? '')!(run)
        .then(
          (reply) => lifecycle.settle(run, pending, reply),
          (error: unknown) => lifecycle.settle(run, pending, undefined, error),
        );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterEach(() => streams.endAll());
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers a reply Node refuses to write with a JSON 500 carrying the request id, logs it once, and keeps serving', async () => {
    handlers.set('/unwritable', async () => json(200, { ok: true }, ['X-Broken', 'a\r\nSet-Cookie: x=1']));
    const res = await fetch(`http://127.0.0.1:${port}/unwritable`);
    expect(res.status).to.equal(500);
    expect(await res.json()).to.deep.equal({ error: 'internal_error', message: 'The operation failed on our side. It is safe to retry.' });
    expect(res.headers.get('x-broken')).to.equal(null);
    expect(res.headers.get('set-cookie')).to.equal(null);
    const id = res.headers.get('x-request-id');
    const logged = errors.filter((entry) => entry.message === 'response could not be written');
    expect(logged).to.have.length(1);
    expect(logged[0]!.fields['req_id']).to.equal(id);
    expect(access.at(-1)).to.include({ path: '/unwritable', status: 500 });
  });

  it('answers a request still running after its allowance with 503 and Retry-After, fires its signal, and never sends what the handler answers later', async () => {
    let late: (reply: Reply) => void = () => undefined;
    let signal: AbortSignal | undefined;
    handlers.set('/slow', (run) => {
      signal = run.signal;
      return new Promise((resolve) => (late = resolve));
    });
    const text = await rawExchange(port, '/slow', async (received) => {
      await eventually(() => received().includes('"service_unavailable"'));
      late(json(200, { late: true }, ['X-Late', 'yes']));
      // Give a late write every chance to reach the socket before the client hangs up.
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(text.match(/HTTP\/1\.1 /g)).to.have.length(1);
    expect(text).to.match(/^HTTP\/1\.1 503 /);
    expect(text).to.include('Retry-After: 1');
    expect(text).to.not.include('X-Late');
    expect(text).to.not.include('"late"');
    expect(signal?.aborted).to.equal(true);
    expect(access.filter((entry) => entry.path === '/slow')).to.have.length(1);
  });

  describe('a streamed reply', () => {
    /** A source that records its sink and how it ended. */
    function source(maxDurationMs?: number) {
      const state: { sink?: StreamSink; ended?: StreamEnd } = {};
      const src = {
        ...(maxDurationMs === undefined ? {} : { maxDurationMs }),
        open(sink: StreamSink) {
          state.sink = sink;
          sink.onEnd((reason) => (state.ended = reason));
          sink.write('retry: 1000\n\n');
        },
      };
      return { src, state };
    }

    it('sends its headers at once and each write as it comes, past the request allowance', async () => {
      const { src, state } = source();
      handlers.set('/stream', async () => stream(200, src, ['Cache-Control', 'no-store']));
      const text = await rawExchange(port, '/stream', async (received) => {
        await eventually(() => received().includes('retry: 1000'));
        await new Promise((resolve) => setTimeout(resolve, ALLOWANCE_MS * 2));
        state.sink!.write('data: one\n\n');
        await eventually(() => received().includes('data: one'));
        state.sink!.write('data: two\n\n');
        await eventually(() => received().includes('data: two'));
      });
      expect(text).to.match(/^HTTP\/1\.1 200 /);
      expect(text).to.include('Content-Type: text/event-stream; charset=utf-8');
      expect(text).to.include('Transfer-Encoding: chunked');
      expect(text).to.not.include('503');
      await eventually(() => state.ended !== undefined);
      expect(state.ended).to.equal('client_closed');
      expect(streams.size).to.equal(0);
    });

    it('ends when the server shuts its streams down, and the client sees the end', async () => {
      const { src, state } = source();
      handlers.set('/stream-shutdown', async () => stream(200, src));
      const text = await rawExchange(port, '/stream-shutdown', async (received) => {
        await eventually(() => received().includes('retry: 1000'));
        expect(streams.size).to.equal(1);
        streams.endAll();
        // The terminating chunk of a chunked body: the stream is over.
        await eventually(() => received().endsWith('0\r\n\r\n'));
      });
      expect(text).to.include('retry: 1000');
      expect(state.ended).to.equal('shutdown');
      expect(state.sink!.write('data: after\n\n')).to.equal(false);
    });

    it('ends a stream whose source fails to open, and logs why once', async () => {
      handlers.set('/stream-broken', async () =>
        stream(200, {
          open() {
            throw new Error('subscription refused');
          },
        }),
      );
      const text = await rawExchange(port, '/stream-broken', async (received) => {
        await eventually(() => received().endsWith('0\r\n\r\n'));
      });
      expect(text).to.match(/^HTTP\/1\.1 200 /);
      expect(errors.filter((entry) => entry.message === 'stream failed to open')).to.have.length(1);
      expect(streams.size).to.equal(0);
    });

    it('is cancelled, never opened, when the allowance answered before the handler, or its headers could not be written', async () => {
      const calls: string[] = [];
      const src = (label: string) => ({ open: () => void calls.push(`${label} open`), cancel: () => void calls.push(`${label} cancel`) });
      let late: (reply: Reply) => void = () => undefined;
      handlers.set('/stream-late', () => new Promise((resolve) => (late = resolve)));
      handlers.set('/stream-unwritable', async () => stream(200, src('unwritable'), ['X-Broken', 'a\r\nb']));
      await rawExchange(port, '/stream-late', async (received) => {
        await eventually(() => received().includes('"service_unavailable"'));
        late(stream(200, src('late')));
      });
      expect((await fetch(`http://127.0.0.1:${port}/stream-unwritable`)).status).to.equal(500);
      expect(calls).to.deep.equal(['late cancel', 'unwritable cancel']);
      expect(streams.size).to.equal(0);
    });

    it('ends at its own deadline', async () => {
      const { src, state } = source(100);
      handlers.set('/stream-deadline', async () => stream(200, src));
      const text = await rawExchange(port, '/stream-deadline', async (received) => {
        await eventually(() => received().endsWith('0\r\n\r\n'));
      });
      expect(text).to.include('retry: 1000');
      expect(state.ended).to.equal('deadline');
      const logged = access.filter((entry) => entry.path === '/stream-deadline');
      expect(logged).to.have.length(1);
      expect(logged[0]!.ms).to.be.at.least(90);
    });
  });
});
