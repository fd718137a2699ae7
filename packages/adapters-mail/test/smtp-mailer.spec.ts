import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { promisify } from 'node:util';
import { freePort, rejectionOf, sleep } from '@storefront/testing';
import { expect } from 'chai';
import { afterEach, describe, it } from 'mocha';
import { MailDeliveryError, SmtpMailer, type MailRetryEvent, type SmtpMailerOptions } from '../src/index.js';
import { startSmtpServer, type TestSmtpServer } from './smtp-test-server.js';

const message = { to: 'ana@shop.example', subject: 'Café: réinitialiser ✓', text: 'Bonjour Zoë,\nhttps://shop.example/reset?token=abc_DEF-123\n' };
const run = promisify(execFile);
const FAST_RETRY = { attempts: 3, baseDelayMs: 20, maxDelayMs: 40 };

describe('SmtpMailer', function () {
  this.timeout(5_000);
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function server(options: Parameters<typeof startSmtpServer>[0] = {}): Promise<TestSmtpServer> {
    const started = await startSmtpServer(options);
    cleanups.push(() => started.stop());
    return started;
  }

  function mailer(url: string, options: Partial<SmtpMailerOptions> = {}): { mailer: SmtpMailer; retries: MailRetryEvent[] } {
    const retries: MailRetryEvent[] = [];
    const created = new SmtpMailer({
      url,
      from: 'Storefront <no-reply@shop.example>',
      retry: FAST_RETRY,
      onRetry: (event) => retries.push(event),
      ...options,
    });
    cleanups.push(() => created.close());
    return { mailer: created, retries };
  }

  it('delivers the message with its sender, recipient, subject and text, in UTF-8', async () => {
    const smtp = await server();
    await mailer(`smtp://127.0.0.1:${smtp.port}`).mailer.send(message);
    expect(smtp.received).to.have.length(1);
    const [mail] = smtp.received;
    expect(mail?.from?.value).to.deep.equal([{ address: 'no-reply@shop.example', name: 'Storefront' }]);
    expect(mail?.to && !Array.isArray(mail.to) ? mail.to.value.map((to) => to.address) : []).to.deep.equal(['ana@shop.example']);
    expect(mail?.subject).to.equal(message.subject);
    expect(mail?.text).to.equal(message.text);
  });

  it('delivers to a server on this machine that offers STARTTLS with a self-signed, expired certificate', async () => {
    const smtp = await server({ starttls: true });
    await mailer(`smtp://localhost:${smtp.port}`).mailer.send(message);
    expect(smtp.received.map((mail) => mail.subject)).to.deep.equal([message.subject]);
  });

  it('logs in with the user and the percent-decoded password of the URL', async () => {
    const smtp = await server({ auth: { user: 'shop', pass: 'p@ss:wörd' } });
    await mailer(`smtp://shop:${encodeURIComponent('p@ss:wörd')}@127.0.0.1:${smtp.port}`).mailer.send(message);
    expect(smtp.received).to.have.length(1);
  });

  it('retries transient answers (451 to RCPT, then 421 after DATA) and delivers the message once', async () => {
    const smtp = await server({ reply: (stage, call) => (stage === 'rcpt' && call === 1 ? 451 : stage === 'data' && call === 1 ? 421 : undefined) });
    const { mailer: smtpMailer, retries } = mailer(`smtp://127.0.0.1:${smtp.port}`);
    await smtpMailer.send(message);
    expect(smtp.received).to.have.length(1);
    expect(smtp.calls).to.deep.equal({ rcpt: 3, data: 2 });
    expect(retries.map((retry) => retry.attempt)).to.deep.equal([1, 2]);
    expect(retries[0]?.reason).to.contain('451');
    expect(retries[1]?.reason).to.contain('421');
  });

  it('retries while the server is down and delivers once it is up', async () => {
    const port = await freePort();
    let started: Promise<TestSmtpServer> | undefined;
    const { mailer: smtpMailer, retries } = mailer(`smtp://127.0.0.1:${port}`, {
      retry: { attempts: 5, baseDelayMs: 100, maxDelayMs: 200 },
      onRetry: (event) => {
        retries.push(event);
        started ??= server({ port });
      },
    });
    await smtpMailer.send(message);
    expect(retries[0]?.reason).to.match(/^ESOCKET|^ECONNECTION/);
    expect((await started!).received).to.have.length(1);
  });

  it('does not retry a permanent refusal (550)', async () => {
    const smtp = await server({ reply: (stage) => (stage === 'rcpt' ? 550 : undefined) });
    const { mailer: smtpMailer, retries } = mailer(`smtp://127.0.0.1:${smtp.port}`);
    const error = await rejectionOf(smtpMailer.send(message));
    expect(error).to.be.instanceOf(MailDeliveryError).and.include({ reason: 'permanent', attempts: 1 });
    expect((error as Error).message).to.contain('550').and.contain('not retried');
    expect(smtp.calls.rcpt).to.equal(1);
    expect(retries).to.deep.equal([]);
  });

  it('gives up after the bounded attempts, saying why', async () => {
    const smtp = await server({ reply: (stage) => (stage === 'rcpt' ? 451 : undefined) });
    const { mailer: smtpMailer, retries } = mailer(`smtp://127.0.0.1:${smtp.port}`);
    const error = await rejectionOf(smtpMailer.send(message));
    expect(error).to.be.instanceOf(MailDeliveryError).and.include({ reason: 'exhausted', attempts: 3 });
    expect((error as Error).message).to.match(/gave up after 3 attempts; last failure: EENVELOPE 451/);
    expect(smtp.calls.rcpt).to.equal(3);
    expect(retries).to.have.length(2);
    expect(smtp.received).to.deep.equal([]);
  });

  it('gives up on a server that accepts the connection but never greets', async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => silent.close(() => resolve())));
    silent.on('connection', (socket) => cleanups.push(async () => void socket.destroy()));
    const address = silent.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const { mailer: smtpMailer } = mailer(`smtp://127.0.0.1:${port}`, {
      retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 10 },
      timeouts: { greetingMs: 150 },
    });
    const error = await rejectionOf(smtpMailer.send(message));
    expect(error).to.include({ reason: 'exhausted', attempts: 2 });
    expect((error as Error).message).to.contain('ETIMEDOUT');
  });

  it('refuses a send at once while the bound of pending messages is reached', async () => {
    const port = await freePort();
    const { mailer: smtpMailer, retries } = mailer(`smtp://127.0.0.1:${port}`, {
      maxPending: 2,
      retry: { attempts: 5, baseDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    const first = smtpMailer.send(message);
    const second = smtpMailer.send(message);
    first.catch(() => {});
    second.catch(() => {});
    const error = await rejectionOf(smtpMailer.send(message));
    expect(error).to.be.instanceOf(MailDeliveryError).and.include({ reason: 'overloaded', attempts: 0 });
    expect((error as Error).message).to.contain('2 messages are already waiting');
    expect(smtpMailer.pending).to.equal(2);
    while (retries.length < 2) await sleep(5);
    await smtpMailer.close();
    expect(await rejectionOf(first)).to.include({ reason: 'closed' });
  });

  it('on close() rejects a send waiting to retry at once', async () => {
    const port = await freePort();
    const { mailer: smtpMailer, retries } = mailer(`smtp://127.0.0.1:${port}`, { retry: { attempts: 5, baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const sending = smtpMailer.send(message);
    while (retries.length === 0) await sleep(5);
    const closedAt = Date.now();
    await smtpMailer.close();
    const error = await rejectionOf(sending);
    expect(Date.now() - closedAt).to.be.below(500);
    expect(error).to.be.instanceOf(MailDeliveryError).and.include({ reason: 'closed', attempts: 1 });
    expect(await rejectionOf(smtpMailer.send(message))).to.include({ reason: 'closed', attempts: 0 });
  });

  it('once closed, keeps no timer that holds the process alive', async () => {
    // In a process of its own: it must end by itself, though the retry wait was 60 s.
    const port = await freePort();
    const script = `
      import { SmtpMailer } from ${JSON.stringify(new URL('../src/index.js', import.meta.url).href)};
      let retried;
      const first = new Promise((resolve) => (retried = resolve));
      const mailer = new SmtpMailer({ url: 'smtp://127.0.0.1:${port}', from: 'a@shop.example', onRetry: retried,
        retry: { attempts: 5, baseDelayMs: 60000, maxDelayMs: 60000 } });
      const sending = mailer.send({ to: 'b@shop.example', subject: 's', text: 't' }).catch((error) => error.reason);
      await first;
      await mailer.close();
      console.log(await sending);`;
    const startedAt = Date.now();
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 4_000 });
    expect(stdout.trim()).to.equal('closed');
    expect(Date.now() - startedAt).to.be.below(4_000);
  });

  it('verify() checks the connection and the login, naming the server without its password when they fail', async () => {
    const smtp = await server({ auth: { user: 'shop', pass: 'right' } });
    await mailer(`smtp://shop:right@127.0.0.1:${smtp.port}`).mailer.verify();
    const error = await rejectionOf(mailer(`smtp://shop:wrong@127.0.0.1:${smtp.port}`).mailer.verify());
    expect((error as Error).message).to.match(/^mail server smtp:\/\/shop:\*\*\*@127\.0\.0\.1:\d+ failed the check: EAUTH 535/);
  });

  it('never puts the password in an error, even when the server echoes it', async () => {
    const smtp = await server({ auth: { user: 'shop', pass: 'right' }, authFailure: (pass) => `Authentication failed for password ${pass}` });
    const { mailer: smtpMailer } = mailer(`smtp://shop:${encodeURIComponent('s3cr%t!')}@127.0.0.1:${smtp.port}`);
    const error = await rejectionOf(smtpMailer.send(message));
    expect(error).to.include({ reason: 'permanent', attempts: 1 });
    expect((error as Error).message).to.contain('535').and.contain('***');
    expect((error as Error).message).not.to.contain('s3cr');
    expect((error as Error).message).not.to.contain(message.to);
  });
});
