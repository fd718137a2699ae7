/**
 * The Node HTTP server for an HttpApp, with the limits of DECISIONS (limits.ts), and a JSON answer
 * with an `X-Request-Id` for what Node would otherwise answer itself before the app sees a request
 * (not HTTP/1.1, headers over the size limit, headers or body too slow, an `Expect` other than
 * `100-continue`), like every other 4xx.
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
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(app, error, socket));
  // Without a listener Node answers an unknown expectation itself: 417, empty body, no request id.
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => answerExpectation(app, req, res));
  return server;
}

/** The JSON error body of DECISIONS "Error body". */
function errorBody(code: HttpErrorCode, message: string): string {
  return JSON.stringify({ error: code, message });
}

function answerExpectation(app: HttpApp, req: http.IncomingMessage, res: http.ServerResponse): void {
  const body = errorBody('expectation_failed', 'The only expectation this server meets is "Expect: 100-continue".');
  // The body the client holds back for its expectation is never read: the connection ends here.
  res.shouldKeepAlive = false;
  res.writeHead(STATUS_BY_CODE.expectation_failed, {
    'X-Request-Id': app.requestId(req.headers['x-request-id']),
    'X-Content-Type-Options': 'nosniff',
    'Content-Type': JSON_TYPE,
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function answerClientError(app: HttpApp, error: NodeJS.ErrnoException, socket: Duplex): void {
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
  const body = errorBody(code, message);
  // A HEAD request gets the headers only: a body would read as garbage after the response.
  const raw = (error as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket;
  const head = raw !== undefined && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
  // The parser gave up before the headers were read: the request's own id is not known, a new one is made.
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nX-Request-Id: ${app.requestId(undefined)}\r\n` +
      `X-Content-Type-Options: nosniff\r\nContent-Type: ${JSON_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
  );
}
