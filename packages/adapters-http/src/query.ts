/** Strict query-string reading: one value per parameter, integers written as plain digits. */
import type { FieldIssue } from '@storefront/domain';
import type { Exchange } from './exchange.js';
import { validationProblem } from './problem.js';

type WithQuery = Pick<Exchange, 'query'>;

export function readString(exchange: WithQuery, name: string, issues: FieldIssue[]): string | undefined {
  const value = exchange.query[name];
  if (Array.isArray(value)) {
    issues.push({ path: name, message: 'must be given once' });
    return undefined;
  }
  return value;
}

export function readInteger(exchange: WithQuery, name: string, issues: FieldIssue[]): number | undefined {
  const raw = readString(exchange, name, issues);
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw)) {
    issues.push({ path: name, message: 'must be a positive integer' });
    return undefined;
  }
  return Number(raw);
}

export function readPaging(exchange: WithQuery): { page: number | undefined; limit: number | undefined } {
  const issues: FieldIssue[] = [];
  const page = readInteger(exchange, 'page', issues);
  const limit = readInteger(exchange, 'limit', issues);
  if (issues.length > 0) throw validationProblem(issues);
  return { page, limit };
}
