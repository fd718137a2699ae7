/**
 * ajv's errors as the API has always named them: `details: [{path, message}]`, `path` dotted from
 * the body's (or query's) root (`items.0.quantity`, `page`, `` for the body itself), one issue per
 * path, and a message that says what the document expects there (its limits, read from the schema
 * that failed, so the sentence cannot drift from the rule).
 */
import type { ErrorObject } from 'ajv';
import type { FieldIssue } from '@storefront/domain';
import { TEXT_RULE } from '@storefront/domain/adapter-kit';

/** The schema at a JSON pointer of the document, following `$ref`s. */
export type SchemaLookup = (pointer: string) => unknown;

type Schema = Record<string, unknown>;

/** The domain's sentence for each text rule the document uses as a `pattern`: the same words in every transport. */
const TEXT_MESSAGES: ReadonlyMap<unknown, string> = new Map(Object.values(TEXT_RULE).map((rule) => [rule.pattern, rule.message]));

export function issuesOf(errors: readonly ErrorObject[], lookup: SchemaLookup, source: 'body' | 'query' = 'body'): FieldIssue[] {
  const byPath = new Map<string, string>();
  for (const error of errors) {
    const at = dotted(error.instancePath);
    const { path, message } = issueOf(error, at, lookup, source);
    if (!byPath.has(path)) byPath.set(path, message);
  }
  return [...byPath].map(([path, message]) => ({ path, message }));
}

function issueOf(error: ErrorObject, at: string, lookup: SchemaLookup, source: 'body' | 'query'): FieldIssue {
  const parent = (error.parentSchema ?? {}) as Schema;
  switch (error.keyword) {
    case 'required': {
      const field = String((error.params as { missingProperty: string }).missingProperty);
      const property = resolve(((parent['properties'] ?? {}) as Record<string, unknown>)[field], lookup);
      return { path: join(at, field), message: `is required: ${expectation(property)}` };
    }
    case 'additionalProperties':
      return { path: join(at, String((error.params as { additionalProperty: string }).additionalProperty)), message: 'is not a known field' };
    case 'type':
      if (source === 'query' && Array.isArray(error.data)) return { path: at, message: 'must be given once' };
      return { path: at, message: `must be ${expectation(parent)}` };
    case 'pattern':
      return { path: at, message: TEXT_MESSAGES.get(error.schema) ?? `must be ${expectation(parent)}` };
    default:
      return { path: at, message: `must be ${expectation(parent)}` };
  }
}

/** What a value fitting `schema` is, in words: `an integer from 1 to 99`, `a string of at most 200 characters`. */
export function expectation(schema: Schema): string {
  if (typeof schema['title'] === 'string') return schema['title'];
  if (Array.isArray(schema['enum'])) return `one of ${schema['enum'].join(', ')}`;
  if ('const' in schema) return JSON.stringify(schema['const']);
  switch (schema['type']) {
    case 'integer':
      return `an integer${range(schema['minimum'], schema['maximum'], (n) => String(n), 'from')}`;
    case 'number':
      return `a number${range(schema['minimum'], schema['maximum'], (n) => String(n), 'from')}`;
    case 'string':
      return `a string${range(schema['minLength'], schema['maxLength'], (n) => `${n} character${n === 1 ? '' : 's'}`, 'of')}`;
    case 'boolean':
      return 'true or false';
    case 'array':
      return `a list${range(schema['minItems'], schema['maxItems'], (n) => `${n} item${n === 1 ? '' : 's'}`, 'of')}${schema['uniqueItems'] === true ? ', each at most once' : ''}`;
    case 'object':
      return Array.isArray(schema['required']) && schema['required'].length > 0 ? `an object with ${schema['required'].join(', ')}` : 'an object';
    default:
      return 'a valid value';
  }
}

/** ` from 1 to 99`, ` of at most 200 characters`, ` of at least 1 character`, or nothing. */
function range(min: unknown, max: unknown, unit: (n: number) => string, word: 'from' | 'of'): string {
  const low = typeof min === 'number' ? min : undefined;
  const high = typeof max === 'number' ? max : undefined;
  if (low !== undefined && high !== undefined) return word === 'from' ? ` from ${low} to ${high}` : ` of ${low} to ${unit(high)}`;
  if (high !== undefined) return ` of at most ${unit(high)}`;
  if (low !== undefined) return ` of at least ${unit(low)}`;
  return '';
}

function resolve(schema: unknown, lookup: SchemaLookup): Schema {
  let node = schema;
  for (let hops = 0; hops < 20 && typeof (node as Schema | undefined)?.['$ref'] === 'string'; hops++) {
    node = lookup(((node as Schema)['$ref'] as string).replace(/^#/, ''));
  }
  return typeof node === 'object' && node !== null ? (node as Schema) : {};
}

/** `/items/0/quantity` → `items.0.quantity` (JSON pointer tokens unescaped). */
function dotted(instancePath: string): string {
  if (instancePath === '') return '';
  return instancePath
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function join(at: string, field: string): string {
  return at === '' ? field : `${at}.${field}`;
}
