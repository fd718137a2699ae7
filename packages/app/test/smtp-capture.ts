/**
 * A real SMTP server for the app's tests (smtp-server on 127.0.0.1, any free port) that keeps every
 * message it accepts, parsed by mailparser: the service under test is started with
 * `SMTP_URL=smtp://127.0.0.1:<port>` and the test reads the reset links from what arrived.
 */
import { expect } from 'chai';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  readonly to: string;
  readonly from: string;
  readonly subject: string;
  readonly text: string;
}

export interface SmtpCapture {
  readonly port: number;
  /** `smtp://127.0.0.1:<port>`. */
  readonly url: string;
  readonly received: CapturedMail[];
  /** Resolves once `count` messages have arrived in all; fails after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<CapturedMail[]>;
  stop(): Promise<void>;
}

export interface SmtpCaptureOptions {
  /** Each message is accepted only after this long: a slow mail server. Default 0. */
  readonly delayMs?: number;
}

export function startSmtpCapture(options: SmtpCaptureOptions = {}): Promise<SmtpCapture> {
  const received: CapturedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    // Plain TCP on loopback: no certificate, so no STARTTLS on offer, and no AUTH.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    closeTimeout: 200,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        async (mail) => {
          if (options.delayMs !== undefined) await new Promise((done) => setTimeout(done, options.delayMs));
          const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '');
          received.push({ to, from: mail.from?.text ?? '', subject: mail.subject ?? '', text: mail.text ?? '' });
          callback(null);
        },
        (error: Error) => callback(error),
      );
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      resolve({
        port,
        url: `smtp://127.0.0.1:${port}`,
        received,
        async waitFor(count, timeoutMs = 5_000) {
          const deadline = Date.now() + timeoutMs;
          while (received.length < count && Date.now() < deadline) await new Promise((done) => setTimeout(done, 10));
          expect(received.length, `emails received within ${timeoutMs} ms`).to.be.at.least(count);
          return received;
        },
        stop: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

/** The token of a reset email: the rest of the line that starts with `linkBase`. */
export function resetTokenOf(mail: CapturedMail, linkBase: string): string {
  const line = mail.text.split('\n').find((candidate) => candidate.startsWith(linkBase));
  expect(line, `a line starting with ${linkBase} in:\n${mail.text}`).to.be.a('string');
  return line!.slice(linkBase.length).trim();
}
