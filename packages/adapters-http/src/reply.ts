/**
 * The answer to one request, built up by the middleware and the handlers and written once, at the
 * end, by `writeReply` (one `writeHead` with every header, then `end`).
 *
 * Why not `ctx.set` and `ctx.body`: those call Node's `res.setHeader` once per header, and each call
 * validates, lower-cases and stores the header in an object that is turned into text again when the
 * response is sent. With the dozen headers every answer carries (request id, rate-limit headers,
 * nosniff, ETag, ...), that cost as much as the rest of Koa (measured in docs/performance.md); a flat
 * list handed to `writeHead` once is validated and written in one pass.
 */
import type { Context } from 'koa';
import { stateOf } from './state.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON value to serialise, or bytes/text already serialised (as JSON unless Content-Type says otherwise). */
export type ReplyBody = Buffer | string | object;

export class Reply {
  /** Undefined until a handler (or the error handler) answers: then the 404 of the error handler applies. */
  status: number | undefined = undefined;
  body: ReplyBody | undefined = undefined;
  /** Name, value, name, value, ...: what `res.writeHead` takes. Names are compared case-insensitively. */
  readonly headers: string[] = [];

  /** Sets a header, replacing one of the same name. */
  set(name: string, value: string): void {
    const i = this.indexOf(name);
    if (i === -1) this.headers.push(name, value);
    else this.headers[i + 1] = value;
  }

  get(name: string): string | undefined {
    const i = this.indexOf(name);
    return i === -1 ? undefined : this.headers[i + 1];
  }

  remove(name: string): void {
    const i = this.indexOf(name);
    if (i !== -1) this.headers.splice(i, 2);
  }

  /** Answers with `status` and, unless it is 204 or 304, `body`. */
  send(status: number, body?: ReplyBody): void {
    this.status = status;
    this.body = body;
  }

  private indexOf(name: string): number {
    const { headers } = this;
    for (let i = 0; i < headers.length; i += 2) if (sameName(headers[i]!, name)) return i;
    return -1;
  }
}

/**
 * Header names compared case-insensitively without lower-casing (no new strings): the same
 * constant is the common case, then names of the same length, letter by letter.
 */
function sameName(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y && !(isAsciiLetter(x) && (x | 0x20) === (y | 0x20))) return false;
  }
  return true;
}

function isAsciiLetter(code: number): boolean {
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

/** The reply of the request, made by the lifecycle middleware before anything else runs. */
export function replyOf(ctx: Context): Reply {
  return stateOf(ctx).reply;
}

export function setHeader(ctx: Context, name: string, value: string): void {
  replyOf(ctx).set(name, value);
}

export function send(ctx: Context, status: number, body?: ReplyBody): void {
  replyOf(ctx).send(status, body);
}

/** Statuses that never carry a body (RFC 9110 §15.3.5, §15.4.5). */
const NO_BODY = new Set([204, 304]);

/**
 * Writes the reply: every header in one `writeHead`, Content-Type (JSON unless set) and
 * Content-Length from the body, no body for HEAD, 204 and 304. Koa is told to write nothing itself.
 * Does nothing when the client has gone or a response was already written.
 */
export function writeReply(ctx: Context, reply: Reply): void {
  ctx.respond = false;
  const res = ctx.res;
  if (res.headersSent || !ctx.writable) return;
  const status = reply.status ?? 500;
  let payload: Buffer | string | undefined;
  if (NO_BODY.has(status)) {
    reply.remove('Content-Type');
    reply.remove('Content-Length');
  } else {
    const { body } = reply;
    payload = body === undefined ? '' : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    if (payload.length > 0 && reply.get('Content-Type') === undefined) reply.headers.push('Content-Type', JSON_TYPE);
    reply.set('Content-Length', String(typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length));
  }
  res.writeHead(status, reply.headers);
  // HEAD: the headers of the GET, Content-Length included, and no body (Node drops it anyway).
  res.end(ctx.method === 'HEAD' ? undefined : payload);
}
