/**
 * Behind a load balancer (`TRUST_PROXY=true`), the client is the address the trusted proxies
 * appended to X-Forwarded-For, never one the client wrote itself: a client that writes a new
 * leftmost address on every request must not get a new quota or a new login bucket. IPv6 clients
 * are counted by their /64.
 */
import { randomInt } from 'node:crypto';
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Res, ServerHandle } from './support.js';
import { call, expectError, useServer } from './support.js';

/** A fresh value for the part of X-Forwarded-For a client controls: always another address. */
function spoofed(): string {
  return `${randomInt(1, 224)}.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

/** A random interface id: the last 64 bits of an IPv6 address. */
function interfaceId(): string {
  return Array.from({ length: 4 }, () => randomInt(0x10000).toString(16)).join(':');
}

function get(h: ServerHandle, path: string, forwardedFor: string): Promise<Res> {
  return call(h.url, path, { headers: { 'X-Forwarded-For': forwardedFor } });
}

function remaining(res: Res): number {
  return Number(res.headers.get('x-ratelimit-remaining'));
}

/** Sends `count` requests, each with its own X-Forwarded-For; the statuses in order. */
async function statuses(h: ServerHandle, count: number, forwardedFor: () => string, path = '/api/products'): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await get(h, path, forwardedFor())).status);
  return out;
}

describe('e2e: the client address behind one trusted proxy (TRUST_PROXY=true, 5 requests and 3 logins per 60 s)', function () {
  const h = useServer({ TRUST_PROXY: 'true', RATE_LIMIT_MAX: '5', LOGIN_RATE_LIMIT_MAX: '3' });

  it('counts requests by the address the proxy appended: a new leftmost address on every request buys nothing', async function () {
    const answers = await statuses(h, 6, () => `${spoofed()}, 10.0.0.7`);
    expect(answers).to.deep.equal([200, 200, 200, 200, 200, 429]);
    // Even several spoofed entries, or a spoofed entry that looks like the proxy's own network.
    expect(await statuses(h, 3, () => `${spoofed()}, ${spoofed()}, 10.0.0.7`)).to.deep.equal([429, 429, 429]);
    expect(await statuses(h, 1, () => '10.0.0.8, 10.0.0.7')).to.deep.equal([429]);
  });

  it('gives each address the proxy appended a quota of its own', async function () {
    expect(remaining(await get(h, '/api/products', `${spoofed()}, 10.0.0.21`))).to.equal(4);
    expect(remaining(await get(h, '/api/products', `${spoofed()}, 10.0.0.22`))).to.equal(4);
    const quota = await get(h, '/api/rate-limit', `${spoofed()}, 10.0.0.21`);
    expect(quota.body).to.include({ scope: 'ip', remaining: 4 });
  });

  it('keeps the login limit per address the proxy appended: the 4th attempt is 429 whatever the leftmost address and email', async function () {
    const attempts: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call(h.url, '/api/auth/login', {
        headers: { 'X-Forwarded-For': `${spoofed()}, 10.0.0.30` },
        json: { email: `nobody-${i}-${Date.now()}@example.com`, password: 'wrong-password' },
      });
      attempts.push(res.status);
      if (res.status === 429) expectError(res, 429, 'rate_limited');
    }
    expect(attempts).to.deep.equal([401, 401, 401, 429]);
  });

  it('counts IPv6 clients by their /64: two addresses of one /64 share one quota, another /64 has its own', async function () {
    const answers = await statuses(h, 6, () => `${spoofed()}, 2001:db8:10:20:${interfaceId()}`);
    expect(answers).to.deep.equal([200, 200, 200, 200, 200, 429]);
    expect(await statuses(h, 1, () => '2001:db8:10:20::1')).to.deep.equal([429]);
    expect(remaining(await get(h, '/api/products', `${spoofed()}, 2001:db8:10:21:${interfaceId()}`))).to.equal(4);
  });

  it('counts the IPv4-mapped IPv6 spelling of an address as that IPv4 address', async function () {
    expect(remaining(await get(h, '/api/products', '10.0.0.40'))).to.equal(4);
    expect(remaining(await get(h, '/api/products', '::ffff:10.0.0.40'))).to.equal(3);
  });

  it('keeps the login limit per /64 as well', async function () {
    const attempts: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call(h.url, '/api/auth/login', {
        headers: { 'X-Forwarded-For': `2001:db8:30:40:${interfaceId()}` },
        json: { email: `nobody-v6-${i}-${Date.now()}@example.com`, password: 'wrong-password' },
      });
      attempts.push(res.status);
    }
    expect(attempts).to.deep.equal([401, 401, 401, 429]);
  });

  it('counts an X-Forwarded-For value that is not an address (abc, 0x02020202, 002.002.002.002) as the socket address: no spelling buys a quota', async function () {
    const forged = ['abc', '0x02020202', '002.002.002.002', 'abc', '0x02020202', '002.002.002.002'];
    const answers: number[] = [];
    for (const value of forged) {
      answers.push((await call(h.url, '/api/products', { headers: { 'X-Forwarded-For': value }, localAddress: '127.0.0.61' })).status);
    }
    expect(answers).to.deep.equal([200, 200, 200, 200, 200, 429]);
    // The socket's own address, asked without a header, has spent that same quota.
    expect((await call(h.url, '/api/products', { localAddress: '127.0.0.61' })).status).to.equal(429);
  });

  it('uses the socket address when no X-Forwarded-For arrives (a health check made by the proxy itself)', async function () {
    const first = remaining(await call(h.url, '/api/products'));
    expect(remaining(await call(h.url, '/api/products'))).to.equal(first - 1);
    // The loopback address the socket reports is not among those the tests above spent.
    expect(first).to.equal(4);
  });
});

describe('e2e: the client address behind two trusted proxies (TRUST_PROXY_HOPS=2, 5 requests per 60 s)', function () {
  const h = useServer({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '2', RATE_LIMIT_MAX: '5' });

  it('counts requests by the entry the outer proxy appended, whatever the client wrote and whichever inner proxy node appended last', async function () {
    // client → outer proxy (appends the client, 10.0.1.7) → inner proxy node (appends the outer proxy's address) → app
    const answers = await statuses(h, 6, () => `${spoofed()}, 10.0.1.7, 10.9.0.${randomInt(1, 255)}`);
    expect(answers).to.deep.equal([200, 200, 200, 200, 200, 429]);
    expect(remaining(await get(h, '/api/products', `${spoofed()}, 10.0.1.8, 10.9.0.1`))).to.equal(4);
  });

  it('counts a request that came through fewer proxies than configured by the leftmost entry it has', async function () {
    expect(remaining(await get(h, '/api/products', '10.0.1.20'))).to.equal(4);
    expect(remaining(await get(h, '/api/products', '10.0.1.20'))).to.equal(3);
    expect(remaining(await get(h, '/api/products', '10.0.1.21'))).to.equal(4);
  });
});
