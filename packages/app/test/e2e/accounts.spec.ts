/**
 * Accounts end to end (DECISIONS "Accounts: sign-up, password reset, erasure"): a real server on a
 * real port, and a real SMTP server in the test (smtp-server) receiving the reset emails, whose
 * links the tests follow.
 */
import { FakeClock, type SseReader } from '@storefront/testing';
import { expect } from 'chai';
import { after, afterEach, before, describe, it } from 'mocha';
import { runCommand } from '../../src/cli/commands.js';
import type { StartOptions } from '../../src/server.js';
import { ERROR, recordingLogger, WARN, type LogLine } from '../helpers.js';
import { resetTokenOf, startSmtpCapture, type SmtpCapture } from '../smtp-capture.js';
import { follow } from './events-support.js';
import { KITCHEN, staffToken } from './kitchen-support.js';
import {
  availableProducts,
  baseOf,
  call,
  expectError,
  expectJson,
  expectUnauthorized,
  expectValidation,
  freshEmail,
  login,
  placeOrder,
  startServer,
  type Env,
  type RequestOptions,
  type Res,
  type RunningServer,
  type Tokens,
} from './support.js';

const RESET_URL = 'https://shop.example/reset?token=';

function register(base: string, body: unknown, opts: RequestOptions = {}): Promise<Res> {
  return call(base, '/api/auth/register', { ...opts, json: body });
}

function requestReset(base: string, email: string, opts: RequestOptions = {}): Promise<Res> {
  return call(base, '/api/auth/password-reset', { ...opts, json: { email } });
}

function confirmReset(base: string, token: string, password: string): Promise<Res> {
  return call(base, '/api/auth/password-reset/confirm', { json: { token, password } });
}

interface MailingServer {
  readonly server: RunningServer;
  readonly url: string;
  readonly smtp: SmtpCapture;
}

/**
 * A server that mails through an SMTP server of the test's own (started first, so that its port
 * can go in SMTP_URL), with PASSWORD_RESET_URL set; both closed after the suite.
 */
function useMailingServer(env: Env = {}, options: StartOptions = {}): MailingServer {
  let running: RunningServer | undefined;
  let smtp: SmtpCapture | undefined;
  before(async function () {
    this.timeout(30_000);
    smtp = await startSmtpCapture();
    running = await startServer({ SMTP_URL: smtp.url, PASSWORD_RESET_URL: RESET_URL, ...env }, options);
  });
  after(async function () {
    this.timeout(15_000);
    await running?.close();
    await smtp?.stop();
  });
  return {
    get server() {
      return running!;
    },
    get url() {
      return baseOf(running!);
    },
    get smtp() {
      return smtp!;
    },
  };
}

/** Signs up a new customer: 201 and its tokens. */
async function signUp(base: string, label: string, password = 'first-password'): Promise<{ email: string; password: string; tokens: Tokens }> {
  const email = freshEmail(label);
  const res = await register(base, { email, password, name: `Customer ${label}` }, { localAddress: '127.0.0.97' });
  expect(res.status, res.text).to.equal(201);
  return { email, password, tokens: res.body as Tokens };
}

/** Requests a reset for `email`, waits for the background work, and returns the emailed token. */
async function emailedToken(h: MailingServer, email: string): Promise<string> {
  const before = h.smtp.received.length;
  expect((await requestReset(h.url, email)).status).to.equal(202);
  await h.server.storefront.background.settled();
  const mail = (await h.smtp.waitFor(before + 1)).slice(before).find((m) => m.to === email);
  expect(mail, `an email to ${email}`).not.to.equal(undefined);
  return resetTokenOf(mail!, RESET_URL);
}

describe('e2e: POST /api/auth/register', function () {
  const h = useMailingServer({ REGISTER_RATE_LIMIT_MAX: '1000' });

  it('answers 201 with a token pair exactly like login\'s, and the customer is logged in with the role customer', async function () {
    const email = freshEmail('Erin');
    const res = await register(h.url, { email: `  ${email.toUpperCase()} `, password: 'erin-password', name: ' Erin ' });
    expect(res.status, res.text).to.equal(201);
    expectJson(res);
    expect(Object.keys(res.body).sort()).to.deep.equal(['access_token', 'expires_in', 'refresh_token', 'token_type']);
    expect(res.body).to.include({ token_type: 'Bearer', expires_in: 900 });
    expect(res.headers.get('x-refresh-token-expires-in')).to.equal('2592000');
    expect(res.headers.get('cache-control')).to.equal('no-store');
    const me = await call(h.url, '/api/me', { token: res.body.access_token });
    expect(me.status).to.equal(200);
    expect(me.body).to.include({ email: email.toLowerCase(), name: 'Erin', role: 'customer' });
    expect((await call(h.url, '/api/auth/refresh', { json: { refresh_token: res.body.refresh_token } })).status).to.equal(200);
    await login(h.url, email, 'erin-password');
  });

  it('answers 409 email_taken for the same email in other letter case, and the first password still logs in', async function () {
    const { email, password } = await signUp(h.url, 'taken');
    expectError(await register(h.url, { email: email.toUpperCase(), password: 'another-password', name: 'Impostor' }), 409, 'email_taken');
    expectError(await register(h.url, { email: 'ALICE@example.com', password: 'another-password', name: 'Alice' }), 409, 'email_taken');
    await login(h.url, email, password);
  });

  it('answers 400 validation_failed naming each bad field: email, name of 0 or 101 characters, password of 7 or 129', async function () {
    const ok = { email: freshEmail('valid'), password: 'eight-ch', name: 'Val' };
    expectValidation(await register(h.url, { ...ok, email: 'not-an-email' }), 'email');
    expectValidation(await register(h.url, { ...ok, name: '' }), 'name');
    expectValidation(await register(h.url, { ...ok, name: 'n'.repeat(101) }), 'name');
    expectValidation(await register(h.url, { ...ok, password: 'seven-c' }), 'password');
    expectValidation(await register(h.url, { ...ok, password: 'p'.repeat(129) }), 'password');
    expectValidation(await register(h.url, { email: 'x', password: 7, name: '' }), 'email', 'name', 'password');
    expectValidation(await register(h.url, ['not', 'an', 'object']), '');
    // The bounds themselves are accepted.
    expect((await register(h.url, { email: freshEmail('bounds'), password: 'p'.repeat(128), name: 'n'.repeat(100) })).status).to.equal(201);
    expect((await register(h.url, ok)).status).to.equal(201);
  });

  it('lets exactly one of 20 racing sign-ups with one new email in: one 201 and 19 × 409 email_taken, and only the winner\'s password logs in', async function () {
    const email = freshEmail('race');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => register(h.url, { email, password: `racer-password-${i}`, name: `Racer ${i}` })));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 201), JSON.stringify(statuses)).to.have.length(1);
    expect(statuses.filter((s) => s === 409)).to.have.length(19);
    for (const res of answers) if (res.status === 409) expectError(res, 409, 'email_taken');
    const winner = statuses.indexOf(201);
    await login(h.url, email, `racer-password-${winner}`);
    const loser = (winner + 1) % 20;
    expect((await call(h.url, '/api/auth/login', { json: { email, password: `racer-password-${loser}` } })).status).to.equal(401);
  });
});

describe('e2e: sign-ups per client address, at the default limit (5 per hour)', function () {
  const h = useMailingServer();

  it('answers the 6th sign-up from one address within the hour 429 with Retry-After, while another address still signs up', async function () {
    for (let i = 0; i < 5; i += 1) {
      expect((await register(h.url, { email: freshEmail('limit'), password: 'limit-password', name: 'L' }, { localAddress: '127.0.0.61' })).status).to.equal(201);
    }
    const refused = await register(h.url, { email: freshEmail('limit'), password: 'limit-password', name: 'L' }, { localAddress: '127.0.0.61' });
    expectError(refused, 429, 'rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).to.be.greaterThan(60).and.at.most(3600);
    // A taken email counts too: the limit is what stops harvesting addresses through 409s.
    expectError(await register(h.url, { email: 'alice@example.com', password: 'limit-password', name: 'L' }, { localAddress: '127.0.0.61' }), 429, 'rate_limited');
    expect((await register(h.url, { email: freshEmail('limit'), password: 'limit-password', name: 'L' }, { localAddress: '127.0.0.62' })).status).to.equal(201);
  });
});

describe('e2e: password reset by email', function () {
  const h = useMailingServer();

  it('answers 202 {} for a known and an unknown email alike; exactly one email arrives, to the known address, with the link', async function () {
    const { email } = await signUp(h.url, 'known');
    const before = h.smtp.received.length;
    const known = await requestReset(h.url, email);
    const unknown = await requestReset(h.url, freshEmail('unknown'));
    for (const res of [known, unknown]) {
      expect(res.status).to.equal(202);
      expectJson(res);
      expect(res.text).to.equal('{}');
      expect(res.headers.get('cache-control')).to.equal('no-store');
    }
    await h.server.storefront.background.settled();
    const arrived = (await h.smtp.waitFor(before + 1)).slice(before);
    expect(arrived.map((mail) => mail.to)).to.deep.equal([email]);
    const [mail] = arrived;
    expect(mail!.from).to.equal('"Storefront" <no-reply@shop.example>');
    expect(mail!.subject).to.equal('Reset your Storefront password');
    const token = resetTokenOf(mail!, RESET_URL);
    // URL-safe as it is: the link needs no encoding.
    expect(token).to.match(/^[A-Za-z0-9_-]{32,}$/);
    expect(mail!.text).to.contain(`${RESET_URL}${token}`);
  });

  it('sends nothing for a disabled account', async function () {
    const before = h.smtp.received.length;
    expect((await requestReset(h.url, 'carol@example.com')).status).to.equal(202);
    await h.server.storefront.background.settled();
    expect(h.smtp.received.slice(before)).to.deep.equal([]);
  });

  it('follows the emailed token: 204, every old access and refresh token refused, the new password logs in and the old does not, the token spent', async function () {
    const { email, password, tokens } = await signUp(h.url, 'follow');
    const other = await login(h.url, email, password);
    const token = await emailedToken(h, email);

    const confirmed = await confirmReset(h.url, token, 'a-brand-new-password');
    expect(confirmed.status, confirmed.text).to.equal(204);
    expect(confirmed.text).to.equal('');

    for (const session of [tokens, other]) {
      expectUnauthorized(await call(h.url, '/api/me', { token: session.access_token }), 'invalid_token');
      expectError(await call(h.url, '/api/auth/refresh', { json: { refresh_token: session.refresh_token } }), 401, 'invalid_token');
    }
    expectError(await call(h.url, '/api/auth/login', { json: { email, password } }), 401, 'invalid_credentials');
    await login(h.url, email, 'a-brand-new-password');
    expectError(await confirmReset(h.url, token, 'yet-another-password'), 400, 'invalid_reset_token');
  });

  it('ends the account\'s live streams on this instance at once when the reset is confirmed', async function () {
    const { email, tokens } = await signUp(h.url, 'stream');
    const product = (await availableProducts(h.url))[0]!;
    const placed = await placeOrder(h.url, tokens.access_token, [{ product_id: product.product_id, quantity: 1 }]);
    const stream = await follow(h.url, `/api/orders/${placed.body.order_id}/events`, tokens.access_token);
    try {
      await stream.next();
      expect((await confirmReset(h.url, await emailedToken(h, email), 'a-brand-new-password')).status).to.equal(204);
      await stream.end(500);
    } finally {
      await stream.cancel();
    }
  });

  it('refuses a confirmation without a token or with a password of 7 characters (validation_failed), and an unknown token (invalid_reset_token)', async function () {
    expectValidation(await call(h.url, '/api/auth/password-reset/confirm', { json: { password: 'a-brand-new-password' } }), 'token');
    expectValidation(await confirmReset(h.url, 'x'.repeat(43), 'seven-c'), 'password');
    expectValidation(await requestReset(h.url, ''), 'email');
    expectValidation(await call(h.url, '/api/auth/password-reset', { json: ['alice@example.com'] }), '');
    expectError(await confirmReset(h.url, 'x'.repeat(43), 'a-brand-new-password'), 400, 'invalid_reset_token');
  });
});

describe('e2e: password reset requests are limited like logins (per client address and per email)', function () {
  const h = useMailingServer({ LOGIN_RATE_LIMIT_MAX: '3' });

  it('answers the 4th request for one email 429 whatever the address, and the 4th from one address 429 whatever the email', async function () {
    const email = freshEmail('reset-limit');
    for (const address of ['127.0.0.71', '127.0.0.72', '127.0.0.73']) expect((await requestReset(h.url, email, { localAddress: address })).status).to.equal(202);
    const perEmail = await requestReset(h.url, email, { localAddress: '127.0.0.74' });
    expectError(perEmail, 429, 'rate_limited');
    expect(Number(perEmail.headers.get('retry-after'))).to.be.greaterThan(0);

    for (let i = 0; i < 3; i += 1) expect((await requestReset(h.url, freshEmail('reset-limit'), { localAddress: '127.0.0.75' })).status).to.equal(202);
    expectError(await requestReset(h.url, freshEmail('reset-limit'), { localAddress: '127.0.0.75' }), 429, 'rate_limited');
  });
});

describe('e2e: a reset token expires after 30 minutes', function () {
  const clock = new FakeClock(Date.now());
  const h = useMailingServer({}, { clock });

  it('refuses a token 30 minutes and a second old with invalid_reset_token, and takes one 29 minutes old', async function () {
    const { email } = await signUp(h.url, 'expiry');
    const stale = await emailedToken(h, email);
    clock.advance(30 * 60_000 + 1_000);
    expectError(await confirmReset(h.url, stale, 'a-brand-new-password'), 400, 'invalid_reset_token');
    const fresh = await emailedToken(h, email);
    clock.advance(29 * 60_000);
    expect((await confirmReset(h.url, fresh, 'a-brand-new-password')).status).to.equal(204);
  });
});

describe('e2e: the mail server is down', function () {
  const recorder = recordingLogger();
  let server: RunningServer;

  before(async function () {
    this.timeout(30_000);
    // A port that refuses: a capture server started and stopped.
    const gone = await startSmtpCapture();
    await gone.stop();
    server = await startServer(
      { SMTP_URL: `smtp://shop:hunter2@127.0.0.1:${gone.port}`, PASSWORD_RESET_URL: RESET_URL, SHUTDOWN_TIMEOUT_SECONDS: '1' },
      { logger: recorder.logger },
    );
  });
  after(async () => {
    await server?.close();
  });

  it('still answers 202 at once, logs the failure, keeps serving, and never logs the SMTP password', async function () {
    this.timeout(20_000);
    const started = performance.now();
    const res = await requestReset(baseOf(server), 'alice@example.com');
    expect(res.status).to.equal(202);
    expect(performance.now() - started, 'ms to answer').to.be.below(1_000);
    const deadline = Date.now() + 5_000;
    const failed = (line: LogLine) => line.level >= WARN && /mail server failed|background task failed/.test(line.msg);
    while (!recorder.lines.some(failed) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
    expect(recorder.lines.some(failed), 'a logged delivery failure').to.equal(true);
    expect((await call(baseOf(server), '/api/products')).status).to.equal(200);

    // The stop waits for the email a bounded time (SHUTDOWN_TIMEOUT_SECONDS here), then gives it up, logged.
    const stopping = performance.now();
    await server.close();
    expect(performance.now() - stopping, 'ms to stop').to.be.below(5_000);
    const gaveUp = recorder.lines.filter((line) => line.level === ERROR && line.msg === 'background task failed: password reset email');
    expect(gaveUp, 'the email given up, logged as an error').to.have.length(1);
    const startLine = recorder.lines.find((line) => line.msg === 'storefront started');
    expect(startLine?.['mail']).to.match(/^smtp:\/\/shop:\*\*\*@127\.0\.0\.1:\d+/);
    // The start checked the mail server at once (not awaited), so the operator saw it before any reset.
    expect(recorder.lines.filter((line) => line.level === WARN && line.msg.startsWith('mail server check failed at start'))).to.have.length(1);
    expect(JSON.stringify(recorder.lines)).not.to.contain('hunter2');
  });
});

describe('e2e: a stop waits for the reset emails under way', function () {
  it('delivers an email a slow mail server takes 700 ms to accept, requested just before the stop', async function () {
    this.timeout(20_000);
    const slow = await startSmtpCapture({ delayMs: 700 });
    const server = await startServer({ SMTP_URL: slow.url, PASSWORD_RESET_URL: RESET_URL });
    try {
      expect((await requestReset(baseOf(server), 'alice@example.com')).status).to.equal(202);
      await server.close();
      expect(slow.received.map((mail) => mail.to)).to.deep.equal(['alice@example.com']);
    } finally {
      await server.close();
      await slow.stop();
    }
  });
});

describe('e2e: POST /api/me/delete', function () {
  const h = useMailingServer();
  let stream: SseReader | undefined;
  afterEach(() => stream?.cancel());

  it('refuses a wrong password (401 invalid_credentials) and a missing token (401)', async function () {
    const { tokens } = await signUp(h.url, 'erase-refused');
    expectError(await call(h.url, '/api/me/delete', { token: tokens.access_token, json: { password: 'not-the-password' } }), 401, 'invalid_credentials');
    expectUnauthorized(await call(h.url, '/api/me/delete', { json: { password: 'first-password' } }), 'unauthorized');
    expect((await call(h.url, '/api/me', { token: tokens.access_token })).status).to.equal(200);
  });

  it('erases the account: 204, its token and login refused, its orders kept for the kitchen as "deleted", its email free to sign up again', async function () {
    const { email, password, tokens } = await signUp(h.url, 'erase');
    const me = (await call(h.url, '/api/me', { token: tokens.access_token })).body as { customer_id: string };
    const product = (await availableProducts(h.url))[0]!;
    const placed = await placeOrder(h.url, tokens.access_token, [{ product_id: product.product_id, quantity: 1 }]);
    expect(placed.status).to.equal(201);
    stream = await follow(h.url, `/api/orders/${placed.body.order_id}/events`, tokens.access_token);
    await stream.next();

    const erased = await call(h.url, '/api/me/delete', { token: tokens.access_token, json: { password } });
    expect(erased.status, erased.text).to.equal(204);
    // Its live stream on this instance ends at once.
    await stream.end(500);
    expectUnauthorized(await call(h.url, '/api/me', { token: tokens.access_token }), 'invalid_token');
    expectError(await call(h.url, '/api/auth/refresh', { json: { refresh_token: tokens.refresh_token } }), 401, 'invalid_token');
    expectError(await call(h.url, '/api/auth/login', { json: { email, password } }), 401, 'invalid_credentials');

    const staff = await staffToken(h.url);
    const listed = await call(h.url, '/api/staff/orders?status=placed&limit=100', { token: staff });
    expect(listed.status).to.equal(200);
    expect((listed.body.orders as { order_id: string }[]).map((o) => o.order_id), `as ${KITCHEN.email}`).to.include(placed.body.order_id);
    const out: string[] = [];
    await runCommand(h.server.storefront, ['orders', 'list', '--status', 'placed', '--limit', '100'], { out: (text) => out.push(text), readPassword: async () => '', readSecret: async () => '' });
    const line = out.find((text) => text.startsWith(placed.body.order_id));
    expect(line).to.match(/ {2}deleted {2}/);

    const again = await register(h.url, { email, password: 'second-life-password', name: 'Again' }, { localAddress: '127.0.0.96' });
    expect(again.status, again.text).to.equal(201);
    const newMe = (await call(h.url, '/api/me', { token: again.body.access_token })).body as { customer_id: string };
    expect(newMe.customer_id).not.to.equal(me.customer_id);
  });
});

describe('e2e: memory mode without SMTP_URL writes the reset email to the log', function () {
  const recorder = recordingLogger();
  let server: RunningServer;

  before(async function () {
    this.timeout(30_000);
    server = await startServer({ STOREFRONT_STORE: 'memory' }, { logger: recorder.logger });
  });
  after(() => server?.close());

  it('logs the whole message at info, whose link (the demo default) works', async function () {
    expect((await requestReset(baseOf(server), 'alice@example.com')).status).to.equal(202);
    await server.storefront.background.settled();
    const logged = recorder.lines.find((line) => (line['mail'] as { to?: string } | undefined)?.to === 'alice@example.com');
    expect(logged, 'the email in the log').not.to.equal(undefined);
    expect(logged!.level).to.equal(30);
    const mail = logged!['mail'] as { subject: string; text: string };
    expect(mail.subject).to.equal('Reset your Storefront password');
    const base = 'http://localhost:3000/reset-password?token=';
    const token = resetTokenOf({ to: 'alice@example.com', from: '', subject: mail.subject, text: mail.text }, base);
    expect((await confirmReset(baseOf(server), token, 'alice-new-password')).status).to.equal(204);
    await login(baseOf(server), 'alice@example.com', 'alice-new-password');
  });
});

describe('e2e: outside the demo, without SMTP_URL, no reset email reaches the log', function () {
  const recorder = recordingLogger();
  let server: RunningServer;

  before(async function () {
    this.timeout(30_000);
    server = await startServer({ STOREFRONT_STORE: 'memory', STOREFRONT_DEMO_DATA: 'false', LOG_LEVEL: 'info' }, { logger: recorder.logger });
  });
  after(() => server?.close());

  it('warns once at start-up that reset emails cannot be sent', () => {
    const warnings = recorder.lines.filter((line) => line.level === WARN && /SMTP_URL is not set/.test(line.msg));
    expect(warnings, JSON.stringify(recorder.lines)).to.have.length(1);
  });

  it('answers a reset request 202, sends nothing and logs that it could not, never a link or token', async () => {
    const { email } = await signUp(baseOf(server), 'no-mail');
    const from = recorder.lines.length;
    expect((await requestReset(baseOf(server), email)).status).to.equal(202);
    await server.storefront.background.settled();
    const lines = recorder.lines.slice(from);
    const text = JSON.stringify(lines);
    expect(lines.filter((line) => line['mail'] !== undefined), 'no email written to the log').to.deep.equal([]);
    expect(text).not.to.match(/token=|reset-password/);
    const failures = lines.filter((line) => line.level === ERROR && /password reset email/.test(line.msg));
    expect(failures, text).to.have.length(1);
    expect(JSON.stringify(failures[0])).to.include('no Mailer is configured');
  });
});
