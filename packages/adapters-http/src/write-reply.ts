/**
 * Writes a reply on Node's response in one piece: one `writeHead` with every header, then `end`;
 * or, for a stream, the headers at once and the chunks as they come (sse/streamed-replies.ts); to a HEAD, the
 * headers alone.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { headerValue, type Reply } from './reply.js';

/** Statuses that never carry a body (RFC 9110 §15.3.5, §15.4.5). */
const NO_BODY = new Set([204, 304]);

/**
 * The reply's headers after `common` (what every answer carries), Content-Type (JSON unless the
 * reply set one) and Content-Length from the body; no body for HEAD, 204 and 304. Does nothing when
 * the client has gone or a response was already written; throws what Node throws for a header it
 * refuses (a value with a line break).
 */
export function writeReply(res: ServerResponse, reply: Reply, common: string[], head: boolean): void {
  if (res.headersSent || res.destroyed) return;
  const headers = reply.headers.length === 0 ? common : common.concat(reply.headers as string[]);
  const { body, status } = reply;
  if (body.kind === 'stream') {
    if (headerValue(headers, 'Content-Type') === undefined) headers.push('Content-Type', body.contentType);
    res.writeHead(status, STATUS_CODES[status], headers);
    // HEAD: the headers of the stream, and nothing after them (the lifecycle never starts it).
    if (head) res.end();
    else res.flushHeaders();
    return;
  }
  let payload: Buffer | string | undefined;
  if (!NO_BODY.has(status)) {
    payload = body.kind === 'json' ? JSON.stringify(body.value) : body.kind === 'bytes' ? body.data : '';
    if (payload.length > 0 && headerValue(headers, 'Content-Type') === undefined) {
      headers.push('Content-Type', body.kind === 'bytes' ? body.contentType : 'application/json; charset=utf-8');
    }
    headers.push('Content-Length', String(typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length));
  }
  // The reason phrase of this status, named: Node would keep one Koa set for an earlier status
  // (allowedMethods' 501 "Not Implemented" on what is answered 405).
  res.writeHead(status, STATUS_CODES[status], headers);
  // HEAD: the headers of the GET, Content-Length included, and no body (Node drops it anyway).
  res.end(head ? undefined : payload);
}
