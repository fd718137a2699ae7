/**
 * packages/adapters-http/openapi.yaml as Stoplight Prism reads it: a third-party check beside our own ajv checker
 * (openapi.ts), so that "the document says so" does not rest on one reading of OpenAPI 3.1.
 *
 * Prism's own router and validators (@stoplight/prism-http, the very copy `prism proxy` runs,
 * reached through @stoplight/prism-cli) are called in-process on each exchange the e2e helpers
 * already hold, in the order prism-core's factory calls them in proxy mode: route, then security
 * and request validation, then response validation. The exchange is turned into Prism's request
 * and response objects the way its HTTP server and forwarder build them (prism-http-server
 * `server.js`, prism-http `forwarder` and `utils/parseResponse`). A real `prism proxy` in front of
 * the service is exercised by prism-proxy.spec.ts; docs/decisions.md says why both.
 */
import { createRequire } from 'node:module';
import type { Exchange } from './openapi.js';
import { OPENAPI_PATH } from './document-path.js';

/** A request as sent: the headers the client set, and the body bytes (node:http may chunk them). */
export interface SentRequest {
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array | undefined;
  /** Written with chunked transfer encoding, no Content-Length. */
  readonly chunked?: boolean;
  /** `fetch` gives a string body without a Content-Type `text/plain;charset=UTF-8`; node:http gives none. */
  readonly client: 'fetch' | 'node:http';
}

/** What Prism made of one exchange. */
export interface PrismVerdict {
  /** False when Prism found no operation (unknown path, other method, OPTIONS, HEAD): it validates nothing then. */
  readonly routed: boolean;
  /** Violations of the request (empty when the exchange carries no request). */
  readonly request: string[];
  readonly response: string[];
}

// ---------------------------------------------------------------------------------------------
// The slice of Prism's API used here (its types live in packages this project does not depend on).

type Either<L, R> = { readonly _tag: 'Left'; readonly left: L } | { readonly _tag: 'Right'; readonly right: R };
type Operation = object;
interface Diagnostic {
  readonly message: string;
  readonly severity: number;
  readonly path?: readonly string[];
  readonly code?: string | number;
}
interface HttpRequest {
  readonly method: string;
  readonly url: { readonly path: string; readonly query: Record<string, string | string[]> };
  readonly headers: Record<string, string>;
  readonly body: unknown;
}
interface HttpResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}
type Validator<E> = (opts: { resource: Operation; element: E }) => Either<readonly Diagnostic[], E>;

interface PrismHttp {
  getHttpOperationsFromSpec(file: string): Promise<Operation[]>;
}

const fromCli = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json'));
const prismHttp = fromCli('@stoplight/prism-http') as PrismHttp;
const prismRequire = createRequire(fromCli.resolve('@stoplight/prism-http'));
const route = (prismRequire('./router/index.js') as { default: (opts: { resources: Operation[]; input: HttpRequest }) => Either<Error, Operation> }).default;
const validators = prismRequire('./validator/index.js') as {
  validateInput: Validator<HttpRequest>;
  validateSecurity: Validator<HttpRequest>;
  validateOutput: Validator<HttpResponse>;
};
const { hopByHopHeaders } = prismRequire('./forwarder/resources.js') as { hopByHopHeaders: readonly string[] };
const SEVERITY = ['Error', 'Warning', 'Information', 'Hint'];

/** Prism's operations of packages/adapters-http/openapi.yaml, loaded (dereferenced by Prism) once per test process. */
const operations = await prismHttp.getHttpOperationsFromSpec(OPENAPI_PATH);

/** How many exchanges Prism saw, how many it could route, request violations it forgave, and the time it took. */
export const prismStats = { checked: 0, routed: 0, refusedRequests: 0, milliseconds: 0 };

/** Prism's reading of `exchange`: request violations (when it carries its request) and response violations. */
export function prismVerdict(exchange: Exchange): PrismVerdict {
  prismStats.checked += 1;
  const input = toPrismRequest(exchange);
  const found = route({ resources: operations, input });
  if (found._tag === 'Left') return { routed: false, request: [], response: [] };
  prismStats.routed += 1;
  const resource = found.right;
  const request =
    exchange.request === undefined
      ? []
      : [...guarded(() => validators.validateSecurity({ resource, element: withBearerSpelledAsPrismWants(input) })), ...guarded(() => validators.validateInput({ resource, element: input }))];
  const output = toPrismResponse(exchange);
  const response = typeof output === 'string' ? [`response ${output}`] : violations(validators.validateOutput({ resource, element: output }), 'response');
  return { routed: true, request, response };
}

/**
 * What fails a test: every response violation, and a request violation when the service took the
 * request all the same (anything but a 4xx), since then the document refuses what the service
 * accepts and a Prism proxy with `--errors` would stand between them. A request the suite sends
 * invalid on purpose is answered 4xx: its request violations are expected, its response is not
 * excused.
 */
export function prismProblems(exchange: Exchange): string[] {
  if (answeredByHttpServer(exchange)) return [];
  const started = performance.now();
  const verdict = prismVerdict(exchange);
  prismStats.milliseconds += performance.now() - started;
  const refused = exchange.status >= 400 && exchange.status < 500;
  if (verdict.request.length > 0 && refused) prismStats.refusedRequests += 1;
  const request = refused ? [] : verdict.request.map((v) => `${v} (yet the service answered ${exchange.status})`);
  return [...request, ...verdict.response].map((v) => `Prism: ${v}`);
}

/**
 * The answers the HTTP server gives before any app sees the request (400, 408, 417, 431, without
 * the rate-limit headers every answer of the app carries: x-unmatched-requests/http-server). No
 * operation lists them, and none reaches a client through a Prism proxy: the proxy's own HTTP
 * server gives them instead.
 */
function answeredByHttpServer(exchange: Exchange): boolean {
  return [400, 408, 417, 431].includes(exchange.status) && !exchange.headers.has('ratelimit-policy');
}

/**
 * A request validator's violations; what it throws is one too. Prism's path-parameter reader
 * throws URIError on a malformed escape (`/api/orders/ord_%ZZ`): a `prism proxy` process exits on it.
 */
function guarded(validate: () => Either<readonly Diagnostic[], unknown>): string[] {
  try {
    return violations(validate(), 'request');
  } catch (error) {
    return [`request cannot be read by Prism: ${String(error)}`];
  }
}

/**
 * An authentication scheme is case-insensitive (RFC 9110 §11.1) and the service takes `bearer`;
 * Prism's bearer check is a case-sensitive /^Bearer\s/. Its security check sees the scheme
 * spelled its way, so that a request the service rightly takes is not counted as invalid.
 */
function withBearerSpelledAsPrismWants(input: HttpRequest): HttpRequest {
  const authorization = input.headers['authorization'];
  if (authorization === undefined || !/^bearer\s/i.test(authorization)) return input;
  return { ...input, headers: { ...input.headers, authorization: authorization.replace(/^bearer/i, 'Bearer') } };
}

function violations<E>(result: Either<readonly Diagnostic[], E>, location: 'request' | 'response'): string[] {
  if (result._tag === 'Right') return [];
  return result.left.map((d) => `${[location, ...(d.path ?? [])].join('.')} ${d.message} [${SEVERITY[d.severity] ?? d.severity}]`);
}

/** As prism-http-server builds its input: lower-case headers, the query as name → value(s), the body parsed when JSON. */
function toPrismRequest(exchange: Exchange): HttpRequest {
  const url = new URL(exchange.path, 'http://example.com');
  const query: Record<string, string | string[]> = {};
  for (const key of url.searchParams.keys()) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0]! : values;
  }
  const sent = exchange.request;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent?.headers ?? {})) headers[name.toLowerCase()] = value;
  let body: unknown = null;
  if (sent?.body !== undefined) {
    const bytes = typeof sent.body === 'string' ? Buffer.from(sent.body, 'utf8') : Buffer.from(sent.body);
    if (sent.chunked === true) headers['transfer-encoding'] = 'chunked';
    else headers['content-length'] ??= String(bytes.length);
    if (typeof sent.body === 'string' && sent.client === 'fetch') headers['content-type'] ??= 'text/plain;charset=UTF-8';
    if (bytes.length > 0) body = isJson(headers['content-type']) ? parseOr(bytes.toString('utf8')) : bytes.toString('utf8');
  }
  return { method: exchange.method.toLowerCase(), url: { path: url.pathname, query }, headers, body };
}

/** As prism-http's forwarder hands a response on: headers joined, hop-by-hop ones dropped, a JSON body parsed. */
function toPrismResponse(exchange: Exchange): HttpResponse | string {
  const headers: Record<string, string> = {};
  exchange.headers.forEach((value, name) => {
    if (!hopByHopHeaders.includes(name)) headers[name] = value;
  });
  if (exchange.status === 204 || !isJson(headers['content-type'])) return { statusCode: exchange.status, headers, body: exchange.text };
  try {
    return { statusCode: exchange.status, headers, body: JSON.parse(exchange.text) as unknown };
  } catch {
    return `body is declared JSON but does not parse: ${JSON.stringify(exchange.text.slice(0, 200))}`;
  }
}

function isJson(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[^/]+\+json$/.test(type);
}

/** A JSON body Prism's server could not parse (it would refuse the request itself): its text, for the validator to refuse. */
function parseOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
