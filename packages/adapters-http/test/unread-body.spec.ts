/**
 * A request body refused part-way (a bad Content-Encoding, a chunked body over the limit) leaves its
 * unread rest in the connection. Found by the fuzzing suite: on a keep-alive connection the next
 * request then waited until the server's request time-out.
 */
import http from 'node:http';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { serve, type TestServer } from './support.js';

interface Answer {
  readonly status: number;
  readonly connection: string | undefined;
}

function request(server: TestServer, agent: http.Agent, options: { method?: string; path: string; headers?: http.OutgoingHttpHeaders; chunks?: Buffer[] }): Promise<Answer> {
  const url = new URL(server.url);
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: Number(url.port), method: options.method ?? 'GET', path: options.path, headers: options.headers ?? {}, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within 2 s to ${options.path}`)), 2_000);
    req.on('close', () => clearTimeout(timer));
    req.on('error', reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}

describe('A request body refused before it was read to the end', () => {
  let server: TestServer;
  before(async () => {
    server = await serve();
  });
  after(() => server.close());

  const big = Buffer.from(`{"email":"${'x'.repeat(200_000)}"}`);

  it('closes the connection after a 400 for a body that is not the Content-Encoding it claims, so the next request is answered', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await request(server, agent, {
        method: 'POST',
        path: '/api/auth/login',
        headers: { 'content-type': 'application/json', 'content-encoding': 'deflate', 'content-length': big.length },
        chunks: [big],
      });
      expect(refused).to.deep.equal({ status: 400, connection: 'close' });
      expect(await request(server, agent, { path: '/api/products' })).to.include({ status: 200 });
    } finally {
      agent.destroy();
    }
  });

  it('closes the connection after a 413 for a chunked body over the limit, so the next request is answered', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const chunks = Array.from({ length: 20 }, (_, i) => big.subarray(i * 10_000, (i + 1) * 10_000));
      const refused = await request(server, agent, { method: 'POST', path: '/api/auth/login', headers: { 'content-type': 'application/json' }, chunks });
      expect(refused).to.deep.equal({ status: 413, connection: 'close' });
      expect(await request(server, agent, { path: '/api/products' })).to.include({ status: 200 });
    } finally {
      agent.destroy();
    }
  });

  it('keeps the connection alive after an error for a body that was read in full', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const body = Buffer.from('{"email":1}');
      const refused = await request(server, agent, {
        method: 'POST',
        path: '/api/auth/login',
        headers: { 'content-type': 'application/json', 'content-length': body.length },
        chunks: [body],
      });
      expect(refused).to.deep.equal({ status: 400, connection: 'keep-alive' });
    } finally {
      agent.destroy();
    }
  });
});
