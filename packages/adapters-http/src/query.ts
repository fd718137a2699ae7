/**
 * Strict query-string reading: one value per parameter, integers written as plain digits; and the
 * paging parameters written back, in a page's `Link` to the next one.
 */
import type { FieldIssue, Page } from '@storefront/domain';
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

/**
 * The headers of one page of the list at `path`: never cached, and an RFC 8288 `Link` to the next
 * page when there is one, keeping `filter` (values as given, already validated) before the paging.
 */
export function pageHeaders(path: string, page: Pick<Page<unknown>, 'nextPage' | 'perPage'>, filter: Readonly<Record<string, string | undefined>> = {}): string[] {
  const headers = ['Cache-Control', 'no-store'];
  if (page.nextPage === null) return headers;
  let query = '';
  for (const [name, value] of Object.entries(filter)) if (value !== undefined) query += `${name}=${encodeURIComponent(value)}&`;
  headers.push('Link', `<${path}?${query}page=${page.nextPage}&limit=${page.perPage}>; rel="next"`);
  return headers;
}
