/**
 * A request body read as bytes, for a route whose body is vouched for by a signature over exactly
 * those bytes (route.ts, `rawBodyLimit`): nothing parses, decodes or re-encodes it first. Bounded
 * while reading: a declared length above the limit is refused before a byte is read, a body that
 * grows past it as soon as it does (the lifecycle closes a connection left with unread bytes).
 */
import type { IncomingMessage } from 'node:http';
import { HttpProblem } from './problem.js';

export function readRawBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const tooLarge = () => new HttpProblem('payload_too_large', `The body is larger than ${limitBytes} bytes.`);
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    return Promise.reject(new HttpProblem('unsupported_media_type', 'Send the body as it is signed, without a Content-Encoding.'));
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limitBytes) return Promise.reject(tooLarge());
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error: Error | null) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      if (error === null) resolve(Buffer.concat(chunks, size));
      else reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        req.pause();
        done(tooLarge());
      } else chunks.push(chunk);
    };
    const onEnd = () => done(null);
    const onError = (error: Error) => done(error);
    const onAborted = () => done(new HttpProblem('bad_request', 'The request body was cut short.'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}
