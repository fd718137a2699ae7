/**
 * A real webhook receiver on loopback for tests: each request is verified with the reference
 * `standardwebhooks` library against the test's secrets, and recorded. On demand it fails as real
 * receivers do: a status (5xx, 410), hanging past the sender's time-out, closing the connection,
 * refusing connections. The library checks `webhook-timestamp` against the real clock (±5 min): a
 * test on a fake clock keeps it within a few minutes of the real one.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** How the receiver answers the next requests. */
export type ReceiverMode =
  | { readonly kind: 'status'; readonly status: number }
  /** Reads the request and never answers (until the sender gives up or the receiver closes). */
  | { readonly kind: 'hang' }
  /** Reads the request and destroys the connection without a response. */
  | { readonly kind: 'close' };

export interface ReceivedRequest {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The secrets (of those the receiver knows) whose Webhook.verify accepted the request. */
  readonly verifiedWith: readonly string[];
  /** The verified body as JSON; undefined when no secret verified it. */
  readonly json: { readonly type: string; readonly timestamp: string; readonly data: unknown } | undefined;
  /** What the receiver answered: a status, `hang` or `close`. */
  readonly answer: number | 'hang' | 'close';
  readonly at: number;
}

export interface WebhookReceiverOptions {
  /** The secrets it verifies with (settable later: `receiver.secrets = [...]`). */
  readonly secrets?: readonly string[];
  readonly host?: string;
}

export class WebhookReceiver {
  /** The secrets requests are verified with; each request records which of them verified it. */
  secrets: readonly string[];
  /** Every request that arrived, in arrival order, whatever it was answered. */
  readonly requests: ReceivedRequest[] = [];
  /**
   * webhook-ids that arrived while a request with the same id was still being answered: a delivery
   * sent twice at once (several instances must never do that).
   */
  readonly overlaps: string[] = [];
  private mode: ReceiverMode = { kind: 'status', status: 200 };
  private delayMs = 0;
  private readonly inFlight = new Set<string>();
  private server: http.Server;
  private readonly sockets = new Set<Socket>();
  private readonly waiters = new Set<() => void>();
  private port = 0;

  private constructor(
    options: WebhookReceiverOptions,
    private readonly host: string,
  ) {
    this.secrets = options.secrets ?? [];
    this.server = this.makeServer();
  }

  static async start(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(options, options.host ?? '127.0.0.1');
    await receiver.listen();
    return receiver;
  }

  /** `http://127.0.0.1:<port>` + path. */
  url(path = '/hooks'): string {
    return `http://${this.host}:${this.port}${path}`;
  }

  /** Requests answered 2xx and verified: what the receiver accepted, in order. */
  get accepted(): ReceivedRequest[] {
    return this.requests.filter((r) => typeof r.answer === 'number' && r.answer >= 200 && r.answer < 300);
  }

  /** Requests no known secret verified (a test expects none). */
  get unverified(): ReceivedRequest[] {
    return this.requests.filter((r) => r.verifiedWith.length === 0);
  }

  /** Answer with `status` from now on (200 again: `succeed()`). */
  failWith(status: number): void {
    this.mode = { kind: 'status', status };
  }

  /** Never answer from now on. */
  hang(): void {
    this.mode = { kind: 'hang' };
  }

  /** Close every connection a request comes on, without an answer. */
  closeConnections(): void {
    this.mode = { kind: 'close' };
  }

  succeed(): void {
    this.mode = { kind: 'status', status: 200 };
  }

  /** Answer every request `ms` later (a slow receiver: requests overlap). */
  delay(ms: number): void {
    this.delayMs = ms;
  }

  /** How many requests carried each webhook-id. */
  countsById(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const r of this.requests) {
      const id = r.headers['webhook-id'] ?? '';
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }

  /** Stops listening (connections are refused) and drops open connections; `acceptConnections()` reopens the same port. */
  async refuseConnections(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  async acceptConnections(): Promise<void> {
    this.server = this.makeServer();
    await this.listen();
  }

  /** Resolves once `predicate` holds (checked at every request), or rejects after `timeoutMs` with what arrived. */
  async waitFor(predicate: (receiver: WebhookReceiver) => boolean, timeoutMs = 10_000, what = 'the expected webhooks'): Promise<void> {
    if (predicate(this)) return;
    await new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (!predicate(this)) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`receiver: ${what} did not arrive within ${timeoutMs} ms; ${this.requests.length} requests: ${this.summary()}`));
      }, timeoutMs);
      this.waiters.add(check);
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private summary(): string {
    return this.requests
      .slice(-20)
      .map((r) => `${r.headers['webhook-id'] ?? '?'} ${r.json?.type ?? 'unverified'} → ${r.answer}`)
      .join('; ');
  }

  private makeServer(): http.Server {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const id = req.headers['webhook-id'];
        if (typeof id === 'string') {
          if (this.inFlight.has(id)) this.overlaps.push(id);
          this.inFlight.add(id);
          res.on('close', () => this.inFlight.delete(id));
        }
        if (this.delayMs === 0) this.answer(req, res, Buffer.concat(chunks).toString('utf8'));
        else setTimeout(() => this.answer(req, res, Buffer.concat(chunks).toString('utf8')), this.delayMs);
      });
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    return server;
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
    const verifiedWith = this.secrets.filter((secret) => verifies(secret, body, headers));
    const mode = this.mode;
    // An unverified request is refused whatever the mode: the sender must see it as a failure.
    const answer = verifiedWith.length === 0 ? 400 : mode.kind === 'status' ? mode.status : mode.kind;
    const json = verifiedWith.length === 0 ? undefined : (JSON.parse(body) as ReceivedRequest['json']);
    this.requests.push({ path: req.url ?? '', headers, body, verifiedWith, json, answer, at: Date.now() });
    if (answer === 'close') req.socket.destroy();
    else if (typeof answer === 'number') res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'failed');
    for (const waiter of [...this.waiters]) waiter();
  }

  private async listen(): Promise<void> {
    this.server.listen(this.port, this.host);
    await once(this.server, 'listening');
    this.port = (this.server.address() as AddressInfo).port;
  }
}

function verifies(secret: string, body: string, headers: Record<string, string>): boolean {
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  }
}
