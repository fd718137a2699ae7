#!/usr/bin/env node
/**
 * Where the CPU of a paid placement goes, in-process (issue 35; the harness of
 * bench/inprocess-orders.mjs: the memory store's request listener fed through 16 in-memory sockets,
 * no kernel between client and service, logs silent). Two services in this process, payments off
 * and on; the on service's Stripe gateway answers `authorize` in one of these ways, switched round
 * by round:
 *
 *   instant   at once, no request (the payment path's own cost)
 *   immediate after one setImmediate (a turn of the event loop, no I/O)
 *   timer     after a 1 ms timer
 *   http      a bare node:http POST to the stand-in on a keep-alive agent (no SDK)
 *   sdk       the real StripePaymentGateway on the `stripe` SDK
 *
 * and, between rounds, the bare POST and the SDK call each in a loop alone (16 at a time), against
 * the Stripe stand-in in its own process (bench/stripe-stand-in.mjs); the loops only when `http` /
 * `sdk` are among the variants. Prints CPU µs per request:
 * medians of the rounds, and each variant's cost over `off` by round.
 *
 *   node bench/inprocess-payments.mjs [requests per round] [rounds] [variants]   # default 5,000 × 6, all
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/inprocess-payments.mjs 5000 2 immediate
 */
import http from 'node:http';
import { createStripeClient, StripePaymentGateway } from '../packages/adapters-stripe/dist/src/index.js';
import { connection, drive, raw, startInProcess } from './inprocess-orders.mjs';
import { startChild } from './lib.mjs';
import { median } from './stats.mjs';

const CONNECTIONS = 16;
const REQUESTS = Number(process.argv[2] ?? 5_000);
const ROUNDS = Number(process.argv[3] ?? 6);
const VARIANTS = process.argv[4]?.split(',') ?? ['instant', 'immediate', 'timer', 'http', 'sdk'];

const standIn = await startChild('stripe-stand-in.mjs', {});
const base = new URL(standIn.url);
const agent = new http.Agent({ keepAlive: true });
let bare = 0;

/** A PaymentIntent created by a bare node:http POST, form-encoded as the SDK sends it. */
function barePost() {
  const n = ++bare;
  const body = `amount=1250&currency=eur&capture_method=manual&metadata[order_id]=ord_bare${n}`;
  const headers = { authorization: `Bearer ${standIn.apiKey}`, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), 'idempotency-key': `bare-${process.pid}-${n}` };
  return new Promise((resolve, reject) => {
    const request = http.request({ agent, host: base.hostname, port: base.port, method: 'POST', path: '/v1/payment_intents', headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    request.on('error', reject);
    request.end(body);
  });
}

const sdk = StripePaymentGateway.prototype.authorize;
let variant = 'instant';
let fakes = 0;
const awaiting = (request, intentId, clientSecret) => ({ status: 'awaiting', intentId, orderId: request.orderId, clientSecret, amount: request.amount, currency: request.currency });
StripePaymentGateway.prototype.authorize = async function (request) {
  if (variant === 'sdk') return sdk.call(this, request);
  if (variant === 'http') {
    const intent = await barePost();
    return awaiting(request, intent.id, intent.client_secret);
  }
  if (variant === 'immediate') await new Promise((resolve) => setImmediate(resolve));
  if (variant === 'timer') await new Promise((resolve) => setTimeout(resolve, 1));
  const intentId = `pi_inproc${++fakes}`;
  return awaiting(request, intentId, `${intentId}_secret_x`);
};

async function service(env) {
  const { server } = await startInProcess(env);
  const connections = Array.from({ length: CONNECTIONS }, () => connection(server));
  const login = await connections[0](raw('POST', '/api/auth/login', { 'Content-Type': 'application/json' }, JSON.stringify({ email: 'alice@example.com', password: 'alice-password' })));
  const token = JSON.parse(login.body).access_token;
  const menu = JSON.parse((await connections[0](raw('GET', '/api/products'))).body).products;
  const dish = menu.find((p) => p.available && (p.option_groups ?? []).every((g) => g.min === 0));
  const body = JSON.stringify({ items: [{ product_id: dish.product_id, quantity: 2 }] });
  const prefix = `inpay-${Math.random().toString(36).slice(2)}-`;
  let n = 0;
  const post = () => raw('POST', '/api/orders', { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': prefix + ++n }, body);
  return { place: async () => {
    const { cpu, statuses } = await drive(connections, REQUESTS, post);
    if ((statuses.get(201) ?? 0) !== REQUESTS) throw new Error(`not every placement answered 201: ${JSON.stringify([...statuses])}`);
    return cpu;
  } };
}

/** `call` 16 at a time, REQUESTS in all: CPU µs per call. */
async function loop(call) {
  let left = REQUESTS;
  const before = process.cpuUsage();
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (left-- > 0) await call();
  }));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

const off = await service({});
const on = await service({ STOREFRONT_PAYMENTS: 'stripe', STRIPE_SECRET_KEY: standIn.apiKey, STRIPE_WEBHOOK_SECRET: standIn.webhookSecret, STRIPE_API_BASE: standIn.url });
const gateway = new StripePaymentGateway(createStripeClient({ secretKey: standIn.apiKey, apiBase: standIn.url }));
let looped = 0;
const sdkCall = () => sdk.call(gateway, { orderId: `ord_loop${++looped}`, amount: 1250, currency: 'EUR', idempotencyKey: `loop-${process.pid}-${looped}` });

// Warm-up: every path once.
await off.place();
for (const name of VARIANTS) {
  variant = name;
  await on.place();
}
const loops = { 'bare loop': barePost, 'sdk loop': sdkCall };
if (!VARIANTS.includes('http')) delete loops['bare loop'];
if (!VARIANTS.includes('sdk')) delete loops['sdk loop'];
for (const call of Object.values(loops)) await loop(call);

const cpu = Object.fromEntries(['off', ...VARIANTS, ...Object.keys(loops)].map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  cpu.off.push(await off.place());
  for (const name of VARIANTS) {
    variant = name;
    cpu[name].push(await on.place());
  }
  for (const [name, call] of Object.entries(loops)) cpu[name].push(await loop(call));
  console.error(`round ${round + 1}: ${Object.entries(cpu).map(([name, xs]) => `${name} ${xs.at(-1).toFixed(0)}`).join(', ')} µs`);
}
const fmt = (xs) => `${median(xs).toFixed(0)} µs (${xs.map((x) => x.toFixed(0)).join(', ')})`;
console.log(`CPU per request, in-process, ${REQUESTS} × ${ROUNDS} rounds:`);
console.log(`  placement, payments off: ${fmt(cpu.off)}`);
for (const name of VARIANTS) console.log(`  placement, gateway ${name}: ${fmt(cpu[name])}; over off ${fmt(cpu[name].map((x, i) => x - cpu.off[i]))}`);
if (loops['bare loop']) console.log(`  bare node:http POST in a loop: ${fmt(cpu['bare loop'])}`);
if (loops['sdk loop']) console.log(`  SDK call in a loop: ${fmt(cpu['sdk loop'])}`);
await standIn.stop();
process.exit(0);
