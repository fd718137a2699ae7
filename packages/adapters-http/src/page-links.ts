/**
 * The paging parameters written back, in a page's `Link` to the next one. (They are read, like every
 * query parameter, by their operation's check: contract/operations.ts.)
 */
import type { Page } from '@storefront/domain';

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
