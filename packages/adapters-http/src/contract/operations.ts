/**
 * The document checks the requests: each operation of openapi.yaml compiled by ajv (JSON Schema
 * 2020-12, as OpenAPI 3.1 reads it) into one check of path parameters, query and body, run before
 * its handler (Fastify's lib/validation.js). A path parameter that cannot be ours is 404; a query
 * or body that does not fit is 400 `validation_failed` naming each input (issues.ts). Compiled
 * once per document and process, never per request.
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { validationFailed } from '@storefront/domain/adapter-kit';
import { HttpProblem } from '../problem.js';
import type { OpenApiDocument } from './document.js';
import type { OperationId } from './input.js';
import { issuesOf, type SchemaLookup } from './issues.js';

// ajv and ajv-formats are CommonJS with a `default` property; NodeNext types see the namespace.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

/** What the router hands over of a request, before the check. */
export interface RawRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
}

/** The checked request: the same values (query integers as numbers), typed by Input<K>. */
export interface CheckedRequest {
  readonly params: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
}

export interface OperationCheck {
  /** Upper case, as the router registers it. */
  readonly method: string;
  /** The router's form: `/api/orders/:order_id`. */
  readonly path: string;
  check(request: RawRequest): CheckedRequest;
}

type Json = Record<string, unknown>;

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required: boolean;
  /** JSON pointer of its schema in the document. */
  readonly schema: string;
  /**
   * Query numbers arrive as text: an integer's plain digits, or a number's decimal notation
   * (`-12.5`), are read as a number; anything else stays text and fails.
   */
  readonly numeric: 'integer' | 'number' | null;
}

const SCHEMA_ID = 'openapi';
/** Keywords OpenAPI 3.1 adds to JSON Schema; annotations to a validator. */
const OAS_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];
const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;
const DIGITS = /^\d{1,15}$/;
/** A decimal number as a query writes it (no exponent, no leading `+`): coordinates such as `-0.1276`. */
const DECIMAL = /^-?\d{1,15}(\.\d{1,15})?$/;
const EMPTY: Readonly<Record<string, never>> = Object.freeze({});

const compiled = new WeakMap<OpenApiDocument, ReadonlyMap<OperationId, OperationCheck>>();

/** Every operation of `document` with an operationId, by that id. */
export function operationChecks(document: OpenApiDocument): ReadonlyMap<OperationId, OperationCheck> {
  let checks = compiled.get(document);
  if (checks === undefined) {
    checks = compile(document);
    compiled.set(document, checks);
  }
  return checks;
}

function compile(document: OpenApiDocument): ReadonlyMap<OperationId, OperationCheck> {
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictRequired: false });
  ajv.addVocabulary(OAS_KEYWORDS);
  addFormats(ajv);
  // The document's own fields (openapi, info, paths...) are annotations to the schema it is made.
  ajv.addVocabulary(Object.keys(document).filter((key) => ajv.getKeyword(key) === false));
  ajv.addSchema(document as Json, SCHEMA_ID);
  const lookup: SchemaLookup = (pointer) => deref(document, pointer).node;
  const checks = new Map<OperationId, OperationCheck>();
  const paths = (document['paths'] ?? {}) as Record<string, Json>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (operation === undefined || typeof operation['operationId'] !== 'string') continue;
      const at = `/paths/${escape(path)}/${method}`;
      const parameters = [...parametersAt(document, `/paths/${escape(path)}`), ...parametersAt(document, at)];
      const body = requestBodySchema(document, `${at}/requestBody`);
      checks.set(operation['operationId'] as OperationId, {
        method: method.toUpperCase(),
        path: path.replace(/\{([^}]+)\}/g, ':$1'),
        check: checkOf(
          objectCheck(ajv, parameters.filter((p) => p.in === 'path')),
          parameters.filter((p) => p.in === 'query'),
          objectCheck(ajv, parameters.filter((p) => p.in === 'query')),
          body === undefined ? undefined : ajv.compile({ $ref: ref(body) }),
          lookup,
        ),
      });
    }
  }
  return checks;
}

function checkOf(
  pathCheck: ValidateFunction | undefined,
  queryParameters: readonly Parameter[],
  queryCheck: ValidateFunction | undefined,
  bodyCheck: ValidateFunction | undefined,
  lookup: SchemaLookup,
): OperationCheck['check'] {
  return (request) => {
    if (pathCheck !== undefined && !pathCheck(request.params)) {
      // An id that cannot be one of ours is answered like an unknown one: it never reaches a store
      // and never becomes a 400 that tells ids apart.
      const name = issuesOf(pathCheck.errors ?? [], lookup)[0]?.path ?? 'resource';
      throw new HttpProblem('not_found', `No such ${name.replace(/_id$/, '')}.`);
    }
    const query = queryCheck === undefined ? EMPTY : queryOf(request.query, queryParameters);
    if (queryCheck !== undefined && !queryCheck(query)) throw validationFailed(issuesOf(queryCheck.errors ?? [], lookup, 'query'));
    // No body is read as `{}`: no fields.
    const body = request.body ?? {};
    if (bodyCheck !== undefined && !bodyCheck(body)) throw validationFailed(issuesOf(bodyCheck.errors ?? [], lookup));
    return { params: request.params, query, body };
  };
}

function numericType(type: unknown): Parameter['numeric'] {
  return type === 'integer' || type === 'number' ? type : null;
}

/** The declared query parameters only (others are ignored), numbers written plainly read as numbers. */
function queryOf(raw: RawRequest['query'], parameters: readonly Parameter[]): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const parameter of parameters) {
    const value = raw[parameter.name];
    if (value === undefined) continue;
    const pattern = parameter.numeric === 'integer' ? DIGITS : parameter.numeric === 'number' ? DECIMAL : null;
    query[parameter.name] = pattern !== null && typeof value === 'string' && pattern.test(value) ? Number(value) : value;
  }
  return query;
}

/** One schema for a set of parameters: an object with a property each. */
function objectCheck(ajv: InstanceType<typeof Ajv2020>, parameters: readonly Parameter[]): ValidateFunction | undefined {
  if (parameters.length === 0) return undefined;
  return ajv.compile({
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.name, { $ref: ref(p.schema) }])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
  });
}

function parametersAt(document: OpenApiDocument, at: string): Parameter[] {
  const list = deref(document, `${at}/parameters`).node;
  if (!Array.isArray(list)) return [];
  return list.map((_, i) => {
    const { node, pointer } = deref(document, `${at}/parameters/${i}`);
    const parameter = node as Json;
    const schema = deref(document, `${pointer}/schema`);
    return {
      name: String(parameter['name']),
      in: String(parameter['in']),
      required: parameter['required'] === true,
      schema: schema.pointer,
      numeric: numericType((schema.node as Json | undefined)?.['type']),
    };
  });
}

function requestBodySchema(document: OpenApiDocument, at: string): string | undefined {
  const { node, pointer } = deref(document, at);
  if (node === undefined) return undefined;
  const content = deref(document, `${pointer}/content/${escape('application/json')}/schema`);
  return content.node === undefined ? undefined : content.pointer;
}

/** A JSON pointer of the document as a reference ajv resolves (`openapi#/components/...`). */
function ref(pointer: string): string {
  return `${SCHEMA_ID}#${pointer.split('/').map(encodeURIComponent).join('/')}`;
}

function escape(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The node at `pointer`, following local `$ref`s, and where it really is. */
export function deref(document: OpenApiDocument, pointer: string): { node: unknown; pointer: string } {
  let at = pointer;
  for (let hops = 0; hops < 20; hops++) {
    const node = at.split('/').slice(1).reduce<unknown>((parent, token) => {
      if (typeof parent !== 'object' || parent === null) return undefined;
      return (parent as Json)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
    }, document);
    const target = (node as Json | undefined)?.['$ref'];
    if (typeof target !== 'string' || !target.startsWith('#/')) return { node, pointer: at };
    at = target.slice(1);
  }
  throw new Error(`$ref chain too long at ${pointer}`);
}
