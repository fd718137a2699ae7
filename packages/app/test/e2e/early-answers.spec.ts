/**
 * What Node's HTTP server would answer on its own, before the app sees a request (issue 32 item 15):
 * headers over the limit (431), an `Expect` it cannot meet (417), a request line that is not HTTP
 * (400). Each is answered like any other error: the JSON body of DECISIONS "Error body" and an
 * `X-Request-Id`. Over a raw socket, so that nothing between the test and the server tidies the answer.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { expectError, rawRequest, useServer } from './support.js';

/** The shape of a generated request id (lifecycle.ts): 16 hex digits, a dash, a base-36 counter. */
const GENERATED_ID = /^[0-9a-f]{16}-[0-9a-z]+$/;

describe('e2e: answers made before the app sees a request', function () {
  const h = useServer();

  it('answers headers over 16 KiB with 431 headers_too_large, in JSON, with a new X-Request-Id', async function () {
    const res = await rawRequest(h.url, `GET /api/products HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`);
    expectError(res, 431, 'headers_too_large');
    expect(res.headers.get('x-request-id')).to.match(GENERATED_ID);
  });

  it('answers an Expect other than 100-continue with 417 expectation_failed, in JSON, echoing a sane X-Request-Id', async function () {
    const res = await rawRequest(
      h.url,
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nX-Request-Id: trace-417\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expectError(res, 417, 'expectation_failed');
    expect(res.headers.get('x-request-id')).to.equal('trace-417');
    expect(res.raw.match(/HTTP\/1\.1 \d{3}/g) ?? [], 'one response only').to.have.length(1);
  });

  it('answers a 417 to HEAD with the headers only, and makes an id when the one sent is not sane', async function () {
    const res = await rawRequest(h.url, 'HEAD /api/products HTTP/1.1\r\nHost: x\r\nExpect: later\r\nX-Request-Id: a b\r\nConnection: close\r\n\r\n');
    expect(res.status).to.equal(417);
    expect(res.headers.get('x-request-id')).to.match(GENERATED_ID);
    expect(res.raw.endsWith('\r\n\r\n'), 'no body after the headers').to.equal(true);
  });

  it('still meets Expect: 100-continue', async function () {
    const res = await rawRequest(
      h.url,
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expect(res.raw.startsWith('HTTP/1.1 100 Continue\r\n\r\n'), res.raw.slice(0, 100)).to.equal(true);
    expectError(parseAfterContinue(res.raw), 400, 'validation_failed');
  });

  it('answers a request line that is not HTTP with 400 bad_request, in JSON, with an X-Request-Id', async function () {
    const res = await rawRequest(h.url, 'HELLO WORLD\r\n\r\n');
    expectError(res, 400, 'bad_request');
    expect(res.headers.get('x-request-id')).to.match(GENERATED_ID);
  });
});

/** The final answer after an interim `100 Continue`. */
function parseAfterContinue(raw: string): Parameters<typeof expectError>[0] {
  const rest = raw.slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
  const end = rest.indexOf('\r\n\r\n');
  const lines = rest.slice(0, end).split('\r\n');
  const headers = new Headers();
  for (const line of lines.slice(1)) headers.append(line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim());
  const length = Number(headers.get('content-length') ?? '0');
  return { status: Number(lines[0]!.split(' ')[1]), headers, text: Buffer.from(rest.slice(end + 4), 'latin1').subarray(0, length).toString('utf8'), raw: rest };
}
