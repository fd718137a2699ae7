/**
 * packages/adapters-http/openapi.yaml as a test oracle. `check` finds the operation a request reached (method + path
 * template, or one of the document's `x-unmatched-requests` for unknown paths, other methods and
 * OPTIONS), picks the documented response by status (exact, `4XX`, then `default`), validates the
 * JSON body against its schema (JSON Schema 2020-12, as OpenAPI 3.1 defines it) and checks the
 * documented headers: present when required, and their values against their schemas.
 *
 * The end-to-end helpers run every exchange through `assertMatchesContract`, so an undocumented
 * status, a field the document does not know or a missing header fails the test. It asks Stoplight
 * Prism's validator too (prism.ts): the document must read the same to a third-party tool.
 */
import { readFileSync } from 'node:fs';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { OPENAPI_PATH } from './document-path.js';
import { prismProblems, type SentRequest } from './prism.js';

export { OPENAPI_PATH, repositoryRoot } from './document-path.js';

// ajv and ajv-formats are CommonJS with a `default` property; NodeNext types see the namespace.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
type Ajv = InstanceType<typeof Ajv2020>;

type Json = Record<string, unknown>;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One request and the response it got, as the e2e helpers see them. */
export interface Exchange {
  readonly method: string;
  /** Path and query string, e.g. `/api/orders?page=2`. */
  readonly path: string;
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The request's headers and body, when the helper knows them: Prism then validates the request too. */
  readonly request?: SentRequest;
}

/** What a request was matched to: a documented operation, or one of `x-unmatched-requests`. */
export interface Target {
  /** e.g. `GET /api/orders` or `x-unmatched-requests/unknown-path`. */
  readonly name: string;
  /** JSON pointer of the object holding `responses`. */
  readonly pointer: string;
}

const SCHEMA_ID = 'openapi';
/** Keywords OpenAPI 3.1 adds to JSON Schema; harmless to a validator. */
const OAS_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class OpenApiContract {
  readonly document: Json;
  private readonly ajv: Ajv;
  private readonly templates: { readonly path: string; readonly pattern: RegExp }[];
  /** How many responses each `name status` was checked against. */
  readonly seen = new Map<string, number>();
  checked = 0;

  constructor(document: Json) {
    this.document = document;
    this.ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
    this.ajv.addVocabulary(OAS_KEYWORDS);
    addFormats(this.ajv);
    // Schemas are reached by JSON pointer from the document's root, which ajv compiles first: its
    // fields (openapi, info, paths...) are annotations to it, never schemas.
    this.ajv.addVocabulary(Object.keys(document).filter((key) => this.ajv.getKeyword(key) === false));
    this.ajv.addSchema(document, SCHEMA_ID);
    this.templates = Object.keys(this.paths()).map((path) => ({ path, pattern: templatePattern(path) }));
  }

  static fromFile(file = OPENAPI_PATH): OpenApiContract {
    return new OpenApiContract(parse(readFileSync(file, 'utf8')) as Json);
  }

  paths(): Record<string, Json> {
    const paths = this.document['paths'];
    return isObject(paths) ? (paths as Record<string, Json>) : {};
  }

  /** Every documented operation as `METHOD /path`. */
  operations(): string[] {
    return Object.entries(this.paths()).flatMap(([path, item]) =>
      HTTP_METHODS.filter((m) => isObject(item[m])).map((m) => `${m.toUpperCase()} ${path}`),
    );
  }

  /** Every documented response as `<target name> <status>`, for coverage reports. */
  documentedResponses(): string[] {
    const out: string[] = [];
    for (const operation of this.operations()) {
      const [method, path] = operation.split(' ') as [string, string];
      const responses = this.get(`/paths/${escapePointer(path)}/${method.toLowerCase()}/responses`);
      if (isObject(responses)) for (const status of Object.keys(responses)) out.push(`${operation} ${status}`);
    }
    const unmatched = this.document['x-unmatched-requests'];
    if (isObject(unmatched)) {
      for (const [name, target] of Object.entries(unmatched)) {
        const responses = isObject(target) ? target['responses'] : undefined;
        if (isObject(responses)) for (const status of Object.keys(responses)) out.push(`x-unmatched-requests/${name} ${status}`);
      }
    }
    return out;
  }

  /** The value at a JSON pointer of the document (`/components/schemas/Order`). */
  get(pointer: string): unknown {
    let node: unknown = this.document;
    for (const token of pointer.split('/').slice(1)) {
      if (!isObject(node) && !Array.isArray(node)) return undefined;
      node = (node as Json)[unescapePointer(token)];
    }
    return node;
  }

  /** Follows `$ref`s (local ones) from `pointer`; returns the object and where it really is. */
  deref(pointer: string): { node: unknown; pointer: string } {
    let at = pointer;
    let node = this.get(at);
    for (let hops = 0; isObject(node) && typeof node['$ref'] === 'string'; hops++) {
      const ref = node['$ref'];
      if (!ref.startsWith('#/') || hops > 20) throw new Error(`unresolvable $ref ${ref} at ${at}`);
      at = ref.slice(1);
      node = this.get(at);
      if (node === undefined) throw new Error(`$ref ${ref} at ${pointer} points at nothing`);
    }
    return { node, pointer: at };
  }

  /** The operation (or unmatched-request entry) that answers `method` on `path`. */
  target(method: string, path: string): Target {
    const pathname = path.split('?')[0]!.split('#')[0]!;
    const template = this.templates.find((t) => t.pattern.test(pathname));
    if (template === undefined) return unmatched('unknown-path');
    const item = this.paths()[template.path]!;
    const m = method.toLowerCase();
    const own = m === 'head' && !isObject(item['head']) ? 'get' : m;
    if (isObject(item[own])) {
      return { name: `${own.toUpperCase()} ${template.path}`, pointer: `/paths/${escapePointer(template.path)}/${own}` };
    }
    return unmatched(m === 'options' ? 'options' : 'other-method');
  }

  /** Everything about `exchange` that contradicts the document; empty when it conforms. */
  check(exchange: Exchange): string[] {
    const target = this.target(exchange.method, exchange.path);
    const chosen = this.response(target, exchange.status);
    if (typeof chosen === 'string') return [chosen];
    const { node: response, pointer } = chosen;
    this.checked += 1;
    const key = chosen.key;
    this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
    return [...this.checkHeaders(exchange, response, pointer), ...this.checkBody(exchange, response, pointer)];
  }

  private response(target: Target, status: number): { node: Json; pointer: string; key: string } | string {
    const responsesAt = `${target.pointer}/responses`;
    const responses = this.get(responsesAt);
    if (!isObject(responses)) return `${target.name} documents no responses`;
    for (const key of [String(status), `${Math.floor(status / 100)}XX`, 'default']) {
      if (responses[key] !== undefined) {
        const { node, pointer } = this.deref(`${responsesAt}/${key}`);
        if (isObject(node)) return { node, pointer, key: `${target.name} ${key}` };
      }
    }
    // Answers of the HTTP server itself (no app, no body) are documented once for every request.
    const server = this.get(`/x-unmatched-requests/http-server/responses/${status}`);
    if (isObject(server)) return { node: server, pointer: `/x-unmatched-requests/http-server/responses/${status}`, key: `x-unmatched-requests/http-server ${status}` };
    return `${target.name} answered ${status}, which the document does not list (it lists ${Object.keys(responses).join(', ')})`;
  }

  private checkHeaders(exchange: Exchange, response: Json, pointer: string): string[] {
    const problems: string[] = [];
    const headers = response['headers'];
    if (!isObject(headers)) return problems;
    for (const name of Object.keys(headers)) {
      if (name.toLowerCase() === 'content-type') continue; // ignored by OpenAPI; see checkBody
      const { node: header, pointer: headerAt } = this.deref(`${pointer}/headers/${escapePointer(name)}`);
      if (!isObject(header)) continue;
      const value = exchange.headers.get(name);
      if (value === null) {
        if (header['required'] === true) problems.push(`header ${name} is required but missing`);
        continue;
      }
      if (header['schema'] === undefined) continue;
      const schema = this.deref(`${headerAt}/schema`);
      const errors = this.validate(schema.pointer, coerceHeader(value, schema.node));
      if (errors !== null) problems.push(`header ${name}: ${JSON.stringify(value)} ${errors}`);
    }
    return problems;
  }

  private checkBody(exchange: Exchange, response: Json, pointer: string): string[] {
    const content = response['content'];
    const bodyless = exchange.method.toUpperCase() === 'HEAD';
    if (!isObject(content)) {
      return exchange.text === '' ? [] : [`the document describes no body, got ${JSON.stringify(exchange.text.slice(0, 200))}`];
    }
    if (bodyless) return [];
    const mediaType = (exchange.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!isObject(content[mediaType])) {
      return [`Content-Type ${JSON.stringify(exchange.headers.get('content-type'))} is not documented (${Object.keys(content).join(', ')})`];
    }
    if (!/^application\/(.+\+)?json$/.test(mediaType)) return [];
    let body: unknown;
    try {
      body = JSON.parse(exchange.text);
    } catch {
      return [`the body is not JSON: ${JSON.stringify(exchange.text.slice(0, 200))}`];
    }
    const schemaAt = `${pointer}/content/${escapePointer(mediaType)}/schema`;
    if (this.get(schemaAt) === undefined) return [];
    const errors = this.validate(schemaAt, body);
    return errors === null ? [] : [`body ${errors}; body was ${JSON.stringify(body).slice(0, 300)}`];
  }

  /** Validates `value` against the schema at `pointer`; a readable error list, or null. */
  validate(pointer: string, value: unknown): string | null {
    const validateFn = this.ajv.getSchema(`${SCHEMA_ID}#${pointer.split('/').map(encodeURIComponent).join('/')}`);
    if (validateFn === undefined) throw new Error(`no schema at ${pointer}`);
    if (validateFn(value)) return null;
    const errors = (validateFn.errors ?? []).map(
      (e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}${Object.keys(e.params).length > 0 ? ` ${JSON.stringify(e.params)}` : ''}`,
    );
    const shown = errors.slice(0, 5).join('; ');
    return errors.length > 5 ? `${shown}; and ${errors.length - 5} more` : shown;
  }
}

function unmatched(name: string): Target {
  return { name: `x-unmatched-requests/${name}`, pointer: `/x-unmatched-requests/${name}` };
}

/** `/api/orders/{id}` → a pattern matching one path segment per parameter. */
function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  // The router forgives case and one trailing slash; so does the match.
  return new RegExp(`^${source}/?$`, 'i');
}

/** Header values are strings; a schema that wants a number or a boolean gets one when it parses. */
function coerceHeader(value: string, schema: unknown): unknown {
  if (!isObject(schema)) return value;
  const type = schema['type'];
  const wantsNumber = type === 'integer' || type === 'number' || typeof schema['const'] === 'number';
  if (wantsNumber && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if ((type === 'boolean' || typeof schema['const'] === 'boolean') && /^(true|false)$/.test(value)) return value === 'true';
  return value;
}

let shared: OpenApiContract | undefined;

/** The contract of packages/adapters-http/openapi.yaml, loaded once per test process. */
export function contract(): OpenApiContract {
  shared ??= OpenApiContract.fromFile();
  return shared;
}

/**
 * Throws, naming the request and every problem, when the response contradicts the document as our
 * checker reads it or as Prism does (see prismProblems for which request violations count).
 */
export function assertMatchesContract(exchange: Exchange): void {
  const problems = [...contract().check(exchange), ...prismProblems(exchange)];
  if (problems.length > 0) {
    const error = new Error(
      `${exchange.method} ${exchange.path} → ${exchange.status} does not match packages/adapters-http/openapi.yaml:\n  - ${problems.join('\n  - ')}`,
    );
    error.name = 'ContractError';
    throw error;
  }
}
