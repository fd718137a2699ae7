/**
 * The Mailer port on SMTP (nodemailer). `send` resolves once the server accepted the message, and
 * rejects (a MailDeliveryError) only after this adapter's bounded retries with backoff; the domain
 * calls it from a background task, so waiting never holds an HTTP answer. A small pool shares
 * connections and one handshake (relays often answer 421 to many parallel ones); the pool's own
 * requeue is off so that retries live in one place, counted, spaced and bounded.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Mailer } from '@storefront/domain';
import type { MailMessage } from '@storefront/domain/adapter-kit';
import nodemailer, { type SMTPPoolOptions, type Transporter } from 'nodemailer';
import { describeFailure, isTransientFailure, MailDeliveryError, type Scrub } from './delivery-failure.js';
import { backoffDelay, retryPolicy, type RetryPolicy } from './retry-policy.js';
import { parseSmtpUrl, type SmtpUrl } from './smtp-url.js';

/** Deadlines that keep a hung or trickling server from holding a message for ever. */
export interface SmtpTimeouts {
  /** TCP (and TLS) connect. Default 10 s. */
  readonly connectionMs: number;
  /** The server's 220 greeting after connecting. Default 15 s. */
  readonly greetingMs: number;
  /** Silence on an open connection. Default 60 s. */
  readonly socketMs: number;
  /**
   * One whole attempt, the wait in the pool's queue included: catches a server that trickles its
   * replies, which no idle timeout notices. Default 120 s.
   */
  readonly attemptMs: number;
}

export const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = {
  connectionMs: 10_000,
  greetingMs: 15_000,
  socketMs: 60_000,
  attemptMs: 120_000,
};

/** Told before each retry wait: for a warning in the log (the final failure is the rejection of `send`). */
export interface MailRetryEvent {
  /** The attempt that failed, 1-based. */
  readonly attempt: number;
  readonly attempts: number;
  readonly delayMs: number;
  /** Why it failed, scrubbed: no password, no recipient, no message text. */
  readonly reason: string;
}

export interface SmtpMailerOptions {
  /** `SMTP_URL`: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465`. */
  readonly url: string;
  /** `MAIL_FROM`, e.g. `Storefront <no-reply@shop.example>`. */
  readonly from: string;
  readonly retry?: Partial<RetryPolicy>;
  readonly timeouts?: Partial<SmtpTimeouts>;
  /** Messages accepted by `send` and not settled yet (retry waits included); beyond, `send` rejects at once. Default 100. */
  readonly maxPending?: number;
  /** Connections the pool opens at most. Default 2. */
  readonly maxConnections?: number;
  readonly onRetry?: (event: MailRetryEvent) => void;
  /** Jitter source, in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
}

export class SmtpMailer implements Mailer {
  private readonly url: SmtpUrl;
  private readonly from: string;
  private readonly retry: RetryPolicy;
  private readonly timeouts: SmtpTimeouts;
  private readonly maxPending: number;
  private readonly onRetry: (event: MailRetryEvent) => void;
  private readonly random: () => number;
  private readonly transport: Transporter;
  /** Aborted by `close()`: cancels retry waits and the attempts in progress. */
  private readonly shutdown = new AbortController();
  private readonly deliveries = new Set<Promise<void>>();

  constructor(options: SmtpMailerOptions) {
    this.url = parseSmtpUrl(options.url);
    if (!options.from.includes('@')) {
      throw new Error('MAIL_FROM must be the sender address, e.g. "Storefront <no-reply@shop.example>"');
    }
    this.from = options.from;
    this.retry = retryPolicy(options.retry);
    this.timeouts = { ...DEFAULT_SMTP_TIMEOUTS, ...options.timeouts };
    this.maxPending = options.maxPending ?? 100;
    this.onRetry = options.onRetry ?? (() => {});
    this.random = options.random ?? Math.random;
    const transportOptions: SMTPPoolOptions & { pool: true } = {
      url: this.url.href,
      pool: true,
      maxConnections: options.maxConnections ?? 2,
      maxRequeues: 0,
      idleTimeout: 30_000,
      connectionTimeout: this.timeouts.connectionMs,
      greetingTimeout: this.timeouts.greetingMs,
      socketTimeout: this.timeouts.socketMs,
      dnsTimeout: this.timeouts.connectionMs,
      // No nodemailer logger: with debug it would log the AUTH exchange and message bodies.
      logger: false,
      // Elsewhere the certificate is checked (nodemailer's default); see SmtpUrl.loopback.
      ...(this.url.loopback ? { tls: { rejectUnauthorized: false } } : {}),
    };
    this.transport = nodemailer.createTransport(transportOptions);
    // An 'error' event with no listener would crash the process; failures reach us through sendMail.
    this.transport.on('error', () => {});
  }

  /** The server, for a startup log line: `smtp://user:***@mail:587`. */
  get redactedUrl(): string {
    return this.url.redacted;
  }

  /** Attempts per message, the first included. */
  get attempts(): number {
    return this.retry.attempts;
  }

  /** Messages accepted and not settled yet. */
  get pending(): number {
    return this.deliveries.size;
  }

  send(message: MailMessage): Promise<void> {
    if (this.shutdown.signal.aborted) {
      return Promise.reject(new MailDeliveryError('email not sent: the mailer is closed', 0, 'closed'));
    }
    if (this.deliveries.size >= this.maxPending) {
      return Promise.reject(
        new MailDeliveryError(
          `email not sent: ${this.maxPending} messages are already waiting for the mail server at ${this.url.redacted} (it is slow or down)`,
          0,
          'overloaded',
        ),
      );
    }
    const delivery = this.deliver(message).finally(() => this.deliveries.delete(delivery));
    this.deliveries.add(delivery);
    return delivery;
  }

  /** Connects and authenticates once: for a startup check, too costly for every status probe. */
  async verify(): Promise<void> {
    try {
      await this.transport.verify();
    } catch (error) {
      throw new Error(`mail server ${this.url.redacted} failed the check: ${describeFailure(error, { secrets: this.url.secrets })}`);
    }
  }

  /**
   * Stops retry waits and attempts in progress (their sends reject), closes the pool's
   * connections; resolves once every send has settled.
   */
  async close(): Promise<void> {
    this.shutdown.abort();
    this.transport.close();
    await Promise.allSettled([...this.deliveries]);
  }

  private async deliver(message: MailMessage): Promise<void> {
    const scrub: Scrub = { secrets: this.url.secrets, recipient: message.to };
    const { attempts } = this.retry;
    for (let attempt = 1; ; attempt += 1) {
      const failure = await this.attempt(message);
      if (failure === undefined) return;
      if (this.shutdown.signal.aborted) throw closed(attempt);
      const reason = failure.timedOut
        ? `ETIMEDOUT: no answer within ${this.timeouts.attemptMs} ms`
        : describeFailure(failure.error, scrub);
      if (!failure.timedOut && !isTransientFailure(failure.error)) {
        throw new MailDeliveryError(`email not sent: the mail server refused it (${reason}); not retried`, attempt, 'permanent');
      }
      if (attempt >= attempts) {
        throw new MailDeliveryError(`email not sent: gave up after ${attempt} attempts; last failure: ${reason}`, attempt, 'exhausted');
      }
      const delayMs = backoffDelay(this.retry, attempt, this.random);
      this.report({ attempt, attempts, delayMs, reason });
      if (!(await this.wait(delayMs))) throw closed(attempt);
    }
  }

  /** One try; undefined when the server accepted the message. */
  private async attempt(message: MailMessage): Promise<{ error: unknown; timedOut: boolean } | undefined> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.timeouts.attemptMs);
    try {
      await this.transport.sendMail({
        from: this.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        signal: AbortSignal.any([this.shutdown.signal, deadline.signal]),
      });
      return undefined;
    } catch (error) {
      return { error, timedOut: deadline.signal.aborted && !this.shutdown.signal.aborted };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves true after `ms`, or false as soon as the mailer closes (the timer is cleared). */
  private async wait(ms: number): Promise<boolean> {
    try {
      await sleep(ms, undefined, { signal: this.shutdown.signal });
      return true;
    } catch {
      return false;
    }
  }

  private report(event: MailRetryEvent): void {
    try {
      this.onRetry(event);
    } catch {
      // A failing reporter must not turn a retry into a lost message.
    }
  }
}

function closed(attempts: number): MailDeliveryError {
  return new MailDeliveryError(`email not sent: the mailer closed (shutdown) after ${attempts} attempt(s)`, attempts, 'closed');
}
