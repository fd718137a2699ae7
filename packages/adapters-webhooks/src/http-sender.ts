/**
 * One signed webhook POST on node:http(s) through keep-alive agents, one time-out over the whole
 * attempt. No redirect is followed (it would let a public host point at a private one); the body is
 * drained under a small cap; the address rules are checked on the address each connection is
 * really made to (a `lookup` hook), so a name re-pointed after registration is refused. Never
 * rejects; runs on a worker thread by default (create-webhook-sender.ts).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WebhookResponse } from '@storefront/domain/adapter-kit';
import { isLocalhostName, literalAddress, refusedAddress } from './address-rules.js';
import { signatureHeader } from './signature.js';
import { parseWebhookUrl } from './webhook-url.js';

export interface HttpPosterOptions {
  /** WEBHOOK_TIMEOUT_MS: the longest an attempt may take, connecting included. */
  readonly timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE: no address rule at all. */
  readonly allowPrivate: boolean;
  /** WEBHOOK_ALLOW_HTTP: plain http:// URLs may be sent to. Default false. */
  readonly allowHttp?: boolean | undefined;
  /** Bytes of a response body read at most (then the connection is dropped). Default 64 KiB. */
  readonly maxResponseBytes?: number | undefined;
}

/** One attempt, as plain data (it crosses to the worker thread): the secrets that sign it now. */
export interface SendJob {
  readonly url: string;
  readonly secrets: readonly string[];
  readonly eventId: string;
  readonly payload: string;
  /** `webhook-timestamp`: Unix seconds of this attempt. */
  readonly timestamp: number;
}

export interface HttpPoster {
  post(job: SendJob): Promise<WebhookResponse>;
  /** Ends the kept-alive connections. */
  close(): void;
}

const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = 'Storefront-Webhooks/1.0';

export function createHttpPoster(options: HttpPosterOptions): HttpPoster {
  const { timeoutMs, allowPrivate } = options;
  const allowHttp = options.allowHttp ?? false;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const agents = { 'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }), 'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }) };
  const lookup = allowPrivate ? undefined : checkedLookup;

  return {
    post(job: SendJob): Promise<WebhookResponse> {
      const parsed = parseWebhookUrl(job.url, allowHttp);
      if (!parsed.ok) return Promise.resolve(failure(`the URL ${parsed.reason}`));
      const { url } = parsed;
      const literal = literalAddress(url.hostname);
      if (!allowPrivate) {
        // A literal address is connected to without a lookup: its rule is checked here.
        const reason = isLocalhostName(url.hostname) ? `${url.hostname} is this machine` : literal === undefined ? null : refusedAddress(literal);
        if (reason !== null) return Promise.resolve(failure(`address not allowed: ${reason}`));
      }
      if (job.secrets.length === 0) return Promise.resolve(failure('the endpoint has no signing secret'));
      const headers = {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(job.payload)),
        'user-agent': USER_AGENT,
        'webhook-id': job.eventId,
        'webhook-timestamp': String(job.timestamp),
        'webhook-signature': signatureHeader(job.secrets, job.eventId, job.timestamp, job.payload),
      };
      const protocol = url.protocol as 'http:' | 'https:';
      const request = protocol === 'https:' ? https.request : http.request;
      return new Promise<WebhookResponse>((resolve) => {
        let settled = false;
        const finish = (response: WebhookResponse): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(response);
        };
        const req = request({
          protocol,
          hostname: literal ?? url.hostname,
          port: url.port === '' ? undefined : Number(url.port),
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers,
          agent: agents[protocol],
          ...(lookup === undefined ? {} : { lookup }),
        });
        const timer = setTimeout(() => req.destroy(new AttemptTimeout(timeoutMs)), timeoutMs);
        req.on('error', (error) => finish(failure(describe(error))));
        req.on('response', (res) => {
          const statusCode = res.statusCode ?? 0;
          let read = 0;
          const done = (): void =>
            finish(statusCode >= 300 && statusCode < 400 ? { ...failure(`redirect not followed (HTTP ${statusCode})`), statusCode } : { kind: 'response', statusCode });
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > maxResponseBytes) {
              // The status is all we need: drop the connection rather than read on.
              done();
              res.destroy();
            }
          });
          res.on('end', done);
          res.on('error', (error) => finish(failure(describe(error))));
          // Closed before its end (a receiver that cut the body off): the time-out's error or a reset.
          res.on('close', () => {
            if (!res.complete) finish(failure(settledTimeout(req) ?? 'connection closed before the response ended'));
          });
        });
        req.end(job.payload);
      });
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

class AttemptTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no response within ${timeoutMs} ms`);
  }
}

function settledTimeout(req: http.ClientRequest): string | undefined {
  return req.destroyed && req.errored instanceof AttemptTimeout ? req.errored.message : undefined;
}

function failure(error: string): WebhookResponse {
  return { kind: 'error', error };
}

const CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed while sending',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed (try again)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connecting timed out',
};

function describe(error: unknown): string {
  if (error instanceof AttemptTimeout || error instanceof AddressRefused) return error.message;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return CODES[code] ?? `${code}: ${(error as Error).message}`;
  return error instanceof Error ? error.message : String(error);
}

class AddressRefused extends Error {
  readonly code = 'EADDRREFUSED';
}

/**
 * dns.lookup, then the address rules on what it answered: every address when asked for all (net's
 * happy eyeballs may try any of them), the one otherwise. A refusal fails the connection.
 */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, options as LookupOptions, (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => {
    if (error !== null) {
      callback(error, '', 0);
      return;
    }
    const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
    for (const candidate of addresses) {
      const reason = refusedAddress(candidate);
      if (reason !== null) {
        callback(new AddressRefused(`address not allowed: ${hostname} resolves to ${reason}`), '', 0);
        return;
      }
    }
    (callback as (error: null, address: string | LookupAddress[], family?: number) => void)(null, address, family);
  });
};
