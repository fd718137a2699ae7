/**
 * packages/adapters-http/openapi.yaml is a well-formed OpenAPI 3.1 document: it parses, lists every endpoint of the
 * interface, every operation documents its responses, every $ref resolves, every schema compiles
 * (ajv, JSON Schema 2020-12, strict) and every example satisfies its schema.
 *
 * (The official OpenAPI 3.1 meta-schema is not vendored; these checks cover what this project
 * relies on.)
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { escapePointer, HTTP_METHODS, OpenApiContract } from './openapi.js';

type Json = Record<string, unknown>;

const INTERFACE_ENDPOINTS = [
  'GET /api/products',
  'GET /api/search',
  'POST /api/orders',
  'GET /api/orders',
  'POST /api/auth/login',
  'POST /api/auth/refresh',
  'POST /api/auth/logout',
  'GET /api/me',
  'GET /api/rate-limit',
  'GET /api/status',
];

/** Statuses any operation can answer: a bad token (401), a disabled account's token (403), a failure (500). */
const EVERY_OPERATION = ['401', '403', '500'];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every node of the document with its JSON pointer. */
function* walk(node: unknown, pointer = ''): Generator<[unknown, string]> {
  yield [node, pointer];
  if (Array.isArray(node)) {
    for (const [i, child] of node.entries()) yield* walk(child, `${pointer}/${i}`);
  } else if (isObject(node)) {
    for (const [key, child] of Object.entries(node)) yield* walk(child, `${pointer}/${escapePointer(key)}`);
  }
}

interface OperationRef {
  readonly name: string;
  readonly pointer: string;
  readonly operation: Json;
}

function operationsOf(contract: OpenApiContract): OperationRef[] {
  return Object.entries(contract.paths()).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => isObject(item[m])).map((m) => ({
      name: `${m.toUpperCase()} ${path}`,
      pointer: `/paths/${escapePointer(path)}/${m}`,
      operation: item[m] as Json,
    })),
  );
}

/** Media types, parameters and headers: whatever holds a `schema` next to an `example(s)`. */
function exampleHolders(contract: OpenApiContract): { pointer: string; holder: Json }[] {
  const out: { pointer: string; holder: Json }[] = [];
  for (const [node, pointer] of walk(contract.document)) {
    if (isObject(node) && node['schema'] !== undefined && (node['example'] !== undefined || node['examples'] !== undefined)) {
      out.push({ pointer, holder: node });
    }
  }
  return out;
}

describe('packages/adapters-http/openapi.yaml', () => {
  const contract = OpenApiContract.fromFile();
  const doc = contract.document;

  it('is an OpenAPI 3.1 document with a title, a version and paths', () => {
    expect(doc['openapi']).to.be.a('string').and.match(/^3\.1\.\d+$/);
    expect(doc['info']).to.be.an('object').that.includes.keys('title', 'version');
    expect(Object.keys(contract.paths())).to.not.be.empty;
    for (const path of Object.keys(contract.paths())) expect(path, 'paths start with /').to.match(/^\//);
  });

  it('documents every endpoint of the interface', () => {
    expect(contract.operations()).to.include.members(INTERFACE_ENDPOINTS);
  });

  it('gives every operation a unique operationId and a non-empty set of responses with descriptions', () => {
    const ids = new Set<string>();
    for (const { name, pointer, operation } of operationsOf(contract)) {
      const id = operation['operationId'];
      expect(id, `${name} operationId`).to.be.a('string');
      expect(ids.has(id as string), `operationId ${String(id)} is unique`).to.equal(false);
      ids.add(id as string);
      const responses = operation['responses'];
      expect(responses, `${name} responses`).to.be.an('object').that.is.not.empty;
      for (const status of Object.keys(responses as Json)) {
        expect(status, `${name} response key`).to.match(/^([1-5]\d\d|[1-5]XX|default)$/);
        const { node } = contract.deref(`${pointer}/responses/${status}`);
        expect((node as Json)['description'], `${name} ${status} description`).to.be.a('string').and.not.equal('');
      }
    }
  });

  it('lists on every operation the answers any request can get: 401, 403 and 500', () => {
    for (const { name, operation } of operationsOf(contract)) {
      expect(Object.keys(operation['responses'] as Json), name).to.include.members(EVERY_OPERATION);
    }
  });

  it('documents the unmatched requests: unknown path 404, other method 405, OPTIONS 204, HTTP-server answers', () => {
    const unmatched = doc['x-unmatched-requests'] as Json;
    expect(Object.keys((unmatched['unknown-path'] as Json)['responses'] as Json)).to.include('404');
    expect(Object.keys((unmatched['other-method'] as Json)['responses'] as Json)).to.include('405');
    expect(Object.keys((unmatched['options'] as Json)['responses'] as Json)).to.include('204');
    expect(Object.keys((unmatched['http-server'] as Json)['responses'] as Json)).to.include.members(['400', '408', '417', '431']);
  });

  it('resolves every $ref', () => {
    const broken: string[] = [];
    for (const [node, pointer] of walk(doc)) {
      if (!isObject(node) || typeof node['$ref'] !== 'string') continue;
      const ref = node['$ref'];
      if (!ref.startsWith('#/') || contract.get(ref.slice(1)) === undefined) broken.push(`${pointer}: ${ref}`);
    }
    expect(broken).to.deep.equal([]);
  });

  it('puts no keyword beside a $ref: OpenAPI 3.1 allows it, but tools read it differently (allOf and a description instead)', () => {
    const siblings: string[] = [];
    for (const [node, pointer] of walk(doc)) {
      if (isObject(node) && typeof node['$ref'] === 'string' && Object.keys(node).length > 1) {
        siblings.push(`${pointer}: ${Object.keys(node).filter((key) => key !== '$ref').join(', ')}`);
      }
    }
    expect(siblings).to.deep.equal([]);
  });

  it('declares every security scheme it requires, and every path parameter it templates', () => {
    const schemes = Object.keys(((doc['components'] as Json)['securitySchemes'] as Json | undefined) ?? {});
    for (const { name, operation, pointer } of operationsOf(contract)) {
      for (const requirement of (operation['security'] as Json[] | undefined) ?? []) {
        for (const scheme of Object.keys(requirement)) expect(schemes, `${name} security`).to.include(scheme);
      }
      const path = name.split(' ')[1]!;
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const params = ((operation['parameters'] as unknown[] | undefined) ?? []).map((_, i) => contract.deref(`${pointer}/parameters/${i}`).node as Json);
      const declared = params.filter((p) => p['in'] === 'path').map((p) => p['name']);
      expect(declared.sort(), `${name} path parameters`).to.deep.equal(templated.sort());
    }
  });

  it('compiles every schema (JSON Schema 2020-12, strict)', () => {
    const failures: string[] = [];
    for (const [node, pointer] of walk(doc)) {
      if (!pointer.endsWith('/schema') && !/^\/components\/schemas\/[^/]+$/.test(pointer)) continue;
      if (!isObject(node)) continue;
      try {
        contract.validate(pointer, null);
      } catch (error) {
        failures.push(`${pointer}: ${(error as Error).message}`);
      }
    }
    expect(failures).to.deep.equal([]);
  });

  it('gives examples that satisfy their schemas', () => {
    const failures: string[] = [];
    let checked = 0;
    for (const { pointer, holder } of exampleHolders(contract)) {
      const schemaAt = contract.deref(`${pointer}/schema`).pointer;
      const values: [string, unknown][] = [];
      if (holder['example'] !== undefined) values.push(['example', holder['example']]);
      for (const name of Object.keys((holder['examples'] as Json | undefined) ?? {})) {
        const example = contract.deref(`${pointer}/examples/${escapePointer(name)}`).node as Json;
        values.push([`examples/${name}`, example['value']]);
      }
      for (const [label, value] of values) {
        checked += 1;
        const errors = contract.validate(schemaAt, value);
        if (errors !== null) failures.push(`${pointer} ${label}: ${errors}`);
      }
    }
    expect(failures).to.deep.equal([]);
    expect(checked, 'examples checked').to.be.greaterThan(15);
  });

  it('closes every object a response can hold (additionalProperties), so that a new field is drift', () => {
    const open: string[] = [];
    for (const [node, pointer] of walk(doc)) {
      const inResponse = pointer.includes('/responses/') || (pointer.startsWith('/components/schemas/') && !/^\/components\/schemas\/[A-Za-z]+Request(Line)?(\/|$)/.test(pointer));
      if (!inResponse || !isObject(node) || node['type'] !== 'object') continue;
      if (node['additionalProperties'] === undefined || node['additionalProperties'] === true) open.push(pointer);
    }
    expect(open).to.deep.equal([]);
  });
});
