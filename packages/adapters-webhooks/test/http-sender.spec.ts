import { expect } from 'chai';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { lookup } from 'node:dns/promises';
import { WebhookReceiver } from '@storefront/testing';
import { createWebhookSender, type HttpWebhookSender } from '../src/index.js';
import { aDelivery, anEndpoint, aSecret } from './webhook-data.js';

for (const thread of ['worker', 'main'] as const) describe(`createWebhookSender (on the ${thread} thread)`, function () {
  let receiver: WebhookReceiver;
  let sender: HttpWebhookSender;
  const secret = aSecret();

  beforeEach(async () => {
    receiver = await WebhookReceiver.start({ secrets: [secret.secret] });
    sender = createWebhookSender({ timeoutMs: 500, allowPrivate: true, allowHttp: true, thread });
  });
  afterEach(async () => {
    sender.close();
    await receiver.close();
  });

  it('signs per Standard Webhooks: the reference library verifies the request, with the event id and the attempt time', async () => {
    const delivery = aDelivery();
    const now = new Date();
    const response = await sender.send(anEndpoint(receiver.url(), { secrets: [secret] }), delivery, now);
    expect(response).to.deep.equal({ kind: 'response', statusCode: 200 });
    const [request] = receiver.requests;
    expect(request?.verifiedWith).to.deep.equal([secret.secret]);
    expect(request?.headers['webhook-id']).to.equal(delivery.eventId);
    expect(request?.headers['webhook-timestamp']).to.equal(String(Math.floor(now.getTime() / 1000)));
    expect(request?.headers['content-type']).to.equal('application/json');
    expect(request?.body).to.equal(delivery.payload);
  });

  it('signs with both secrets during a rotation, and with the new one only once the old one expired', async () => {
    const fresh = aSecret();
    const old = { ...secret, expiresAt: new Date(Date.now() + 60_000) };
    receiver.secrets = [fresh.secret, secret.secret];
    const endpoint = anEndpoint(receiver.url(), { secrets: [fresh, old] });
    await sender.send(endpoint, aDelivery(), new Date());
    expect(receiver.requests[0]?.verifiedWith).to.deep.equal([fresh.secret, secret.secret]);
    expect(receiver.requests[0]?.headers['webhook-signature']?.split(' ')).to.have.length(2);
    const expired = anEndpoint(receiver.url(), { secrets: [fresh, { ...secret, expiresAt: new Date(Date.now() - 1) }] });
    await sender.send(expired, aDelivery(), new Date());
    expect(receiver.requests[1]?.verifiedWith).to.deep.equal([fresh.secret]);
  });

  it('answers the status of a non-2xx response (500, 410) as a response', async () => {
    receiver.failWith(500);
    expect(await sender.send(anEndpoint(receiver.url(), { secrets: [secret] }), aDelivery(), new Date())).to.deep.equal({ kind: 'response', statusCode: 500 });
    receiver.failWith(410);
    expect(await sender.send(anEndpoint(receiver.url(), { secrets: [secret] }), aDelivery(), new Date())).to.deep.equal({ kind: 'response', statusCode: 410 });
  });

  it('gives up after the time-out when the receiver hangs', async () => {
    receiver.hang();
    const started = Date.now();
    const response = await sender.send(anEndpoint(receiver.url(), { secrets: [secret] }), aDelivery(), new Date());
    expect(response).to.deep.equal({ kind: 'error', error: 'no response within 500 ms' });
    expect(Date.now() - started).to.be.within(450, 2_000);
  });

  it('reports a connection closed without an answer, and a refused connection', async () => {
    receiver.closeConnections();
    const closed = await sender.send(anEndpoint(receiver.url(), { secrets: [secret] }), aDelivery(), new Date());
    expect(closed.kind).to.equal('error');
    const url = receiver.url();
    await receiver.refuseConnections();
    const refused = await sender.send(anEndpoint(url, { secrets: [secret] }), aDelivery(), new Date());
    expect(refused).to.deep.equal({ kind: 'error', error: 'connection refused' });
  });

  it('follows no redirect: a 3xx is a failure and its target hears nothing', async () => {
    const target = await WebhookReceiver.start({ secrets: [secret.secret] });
    const redirecting = await serve((_req, res) => res.writeHead(307, { location: target.url() }).end());
    try {
      const response = await sender.send(anEndpoint(redirecting.url, { secrets: [secret] }), aDelivery(), new Date());
      expect(response).to.deep.equal({ kind: 'error', error: 'redirect not followed (HTTP 307)', statusCode: 307 });
      expect(target.requests).to.have.length(0);
    } finally {
      await target.close();
      await redirecting.close();
    }
  });

  it('reads at most a small part of a long response body, then answers its status', async () => {
    const chatty = await serve((_req, res) => {
      res.writeHead(200);
      // Endless: only the cap ends the attempt before the time-out.
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = (): void => {
        while (res.write(chunk));
        res.once('drain', pump);
      };
      pump();
    });
    try {
      const response = await sender.send(anEndpoint(chatty.url, { secrets: [secret] }), aDelivery(), new Date());
      expect(response).to.deep.equal({ kind: 'response', statusCode: 200 });
    } finally {
      await chatty.close();
    }
  });

  it('keeps the connection alive between deliveries to one receiver', async () => {
    const endpoint = anEndpoint(receiver.url(), { secrets: [secret] });
    const ports = new Set<number>();
    const watched = await serve((req, res) => {
      ports.add(req.socket.remotePort ?? 0);
      res.writeHead(204).end();
    });
    try {
      for (let i = 0; i < 5; i++) await sender.send({ ...endpoint, url: watched.url }, aDelivery(), new Date());
      expect(ports.size).to.equal(1);
    } finally {
      await watched.close();
    }
  });
});

describe('createWebhookSender on its worker thread', function () {
  it('answers every attempt of a batch, and none after close', async () => {
    const secret = aSecret();
    const receiver = await WebhookReceiver.start({ secrets: [secret.secret] });
    const sender = createWebhookSender({ timeoutMs: 2_000, allowPrivate: true, allowHttp: true });
    try {
      const endpoint = anEndpoint(receiver.url(), { secrets: [secret] });
      const responses = await Promise.all(Array.from({ length: 50 }, () => sender.send(endpoint, aDelivery(), new Date())));
      expect(responses.every((r) => r.kind === 'response' && r.statusCode === 200)).to.equal(true);
      expect(receiver.accepted).to.have.length(50);
      sender.close();
      expect(await sender.send(endpoint, aDelivery(), new Date())).to.deep.equal({ kind: 'error', error: 'the sender is closed' });
    } finally {
      sender.close();
      await receiver.close();
    }
  });
});

describe('createWebhookSender address rules (no WEBHOOK_ALLOW_PRIVATE, on its worker thread)', function () {
  let receiver: WebhookReceiver;
  let sender: HttpWebhookSender;
  const secret = aSecret();

  beforeEach(async () => {
    receiver = await WebhookReceiver.start({ secrets: [secret.secret] });
    sender = createWebhookSender({ timeoutMs: 1_000, allowPrivate: false, allowHttp: true });
  });
  afterEach(async () => {
    sender.close();
    await receiver.close();
  });

  it('refuses a loopback address, in any spelling, without connecting', async () => {
    const port = new URL(receiver.url()).port;
    const carrying = ['[::127.0.0.1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::1]', '[2001:0:4136:e378:8000:63bf:80ff:fffe]'];
    for (const host of ['127.0.0.1', '0x7f.1', '2130706433', '[::ffff:127.0.0.1]', ...carrying, 'localhost', 'a.localhost']) {
      const response = await sender.send(anEndpoint(`http://${host}:${port}/hooks`, { secrets: [secret] }), aDelivery(), new Date());
      expect(response.kind, host).to.equal('error');
      expect((response as { error: string }).error, host).to.match(/^address not allowed: /);
    }
    expect(receiver.requests).to.have.length(0);
  });

  it('refuses a name that resolves to a private address when it connects (the lookup hook)', async function () {
    const name = hostname();
    const addresses = await lookup(name, { all: true }).catch(() => []);
    if (addresses.length === 0 || !addresses.every((a) => a.address.startsWith('127.'))) this.skip();
    const response = await sender.send(anEndpoint(`http://${name}:${new URL(receiver.url()).port}/hooks`, { secrets: [secret] }), aDelivery(), new Date());
    expect(response).to.deep.equal({ kind: 'error', error: `address not allowed: ${name} resolves to 127.0.0.1 is a loopback address, not a public one` });
    expect(receiver.requests).to.have.length(0);
  });

  it('refuses http:// unless WEBHOOK_ALLOW_HTTP', async () => {
    const strict = createWebhookSender({ timeoutMs: 1_000, allowPrivate: true });
    try {
      const response = await strict.send(anEndpoint(receiver.url(), { secrets: [secret] }), aDelivery(), new Date());
      expect(response).to.deep.equal({ kind: 'error', error: 'the URL must be an https:// URL' });
      expect(receiver.requests).to.have.length(0);
    } finally {
      strict.close();
    }
  });
});

async function serve(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
