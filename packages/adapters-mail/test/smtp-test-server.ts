/**
 * A real SMTP server for the tests (smtp-server on 127.0.0.1), which parses what it accepts and
 * can answer chosen SMTP errors to chosen calls: the mail server's bad moments, on demand.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** An SMTP reply code to answer a call with, or undefined to accept it. `call` counts from 1. */
export type ReplyPlan = (stage: 'rcpt' | 'data', call: number) => number | undefined;

export interface TestSmtpServerOptions {
  /** Listen here (to start a server on a port that refused before); default: any free port. */
  readonly port?: number;
  /** Require this login; without it, no AUTH is needed. */
  readonly auth?: { readonly user: string; readonly pass: string };
  /** The text of the 535 reply to a wrong login; receives the password tried (to model a server that echoes it). */
  readonly authFailure?: (pass: string) => string;
  readonly reply?: ReplyPlan;
  /** Offer STARTTLS with smtp-server's own certificate (self-signed and expired), as a local relay might. */
  readonly starttls?: boolean;
}

export interface TestSmtpServer {
  readonly port: number;
  /** Messages accepted (answered 250 after DATA), parsed. */
  readonly received: ParsedMail[];
  readonly calls: { rcpt: number; data: number };
  stop(): Promise<void>;
}

export function startSmtpServer(options: TestSmtpServerOptions = {}): Promise<TestSmtpServer> {
  const received: ParsedMail[] = [];
  const calls = { rcpt: 0, data: 0 };
  const reply = options.reply ?? (() => undefined);
  const { auth } = options;
  const server = new SMTPServer({
    logger: false,
    // Plain TCP: the tests need no certificate, so no STARTTLS on offer and AUTH without TLS.
    disabledCommands: [...(options.starttls === true ? [] : ['STARTTLS']), ...(auth === undefined ? ['AUTH'] : [])],
    allowInsecureAuth: true,
    authOptional: auth === undefined,
    closeTimeout: 200,
    onAuth(attempt, _session, callback) {
      if (auth !== undefined && attempt.username === auth.user && attempt.password === auth.pass) {
        return callback(null, { user: attempt.username });
      }
      const text = options.authFailure?.(attempt.password ?? '') ?? 'Invalid username or password';
      callback(Object.assign(new Error(text), { responseCode: 535 }));
    },
    onRcptTo(_address, _session, callback) {
      calls.rcpt += 1;
      callback(failure(reply('rcpt', calls.rcpt)));
    },
    onData(stream, _session, callback) {
      calls.data += 1;
      const code = reply('data', calls.data);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (code !== undefined) return callback(failure(code));
        simpleParser(Buffer.concat(chunks)).then(
          (mail) => {
            received.push(mail);
            callback(null);
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const address = server.server.address();
      resolve({
        port: typeof address === 'object' && address !== null ? address.port : 0,
        received,
        calls,
        stop: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

function failure(code: number | undefined): Error | null {
  if (code === undefined) return null;
  return Object.assign(new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: code });
}
