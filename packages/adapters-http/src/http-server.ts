/**
 * The Node HTTP server for an HttpApp, with the limits of DECISIONS (limits.ts), and a JSON answer
 * for what Node's parser refuses before the app sees a request (not HTTP/1.1, headers over the
 * size limit, headers or body too slow), like every other 4xx.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpApp } from './app-types.js';
import { HTTP_LIMITS, SERVER_TIMEOUTS, type ServerTimeouts } from './limits.js';
import { STATUS_BY_CODE, type HttpErrorCode } from './problem.js';
import { JSON_TYPE } from './reply.js';

export function createHttpServer(app: HttpApp, timeouts: Partial<ServerTimeouts> = {}): http.Server {
  const settings = { ...SERVER_TIMEOUTS, ...timeouts };
  const server = http.createServer(
    { maxHeaderSize: HTTP_LIMITS.maxHeaderSize, connectionsCheckingInterval: settings.connectionsCheckingInterval },
    app.listener,
  );
  server.headersTimeout = settings.headersTimeout;
  server.requestTimeout = settings.requestTimeout;
  server.keepAliveTimeout = settings.keepAliveTimeout;
  server.on('clientError', answerClientError);
  return server;
}

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node's own handler does: nothing to say on a dead socket or over a response already begun.
  const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const [code, message]: [HttpErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ['headers_too_large', `The request line and headers are larger than ${HTTP_LIMITS.maxHeaderSize} bytes.`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['request_timeout', 'The request did not arrive in time.']
        : ['bad_request', 'The request is not valid HTTP/1.1.'];
  const status = STATUS_BY_CODE[code];
  const body = JSON.stringify({ error: code, message });
  // A HEAD request gets the headers only: a body would read as garbage after the response.
  const raw = (error as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket;
  const head = raw !== undefined && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: ${JSON_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
  );
}
