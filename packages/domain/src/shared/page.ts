/** Offset paging as the interface describes it: pages numbered from 1. */
export interface PageRequest {
  readonly page: number;
  readonly limit: number;
}

/** One page of a list, with what a client needs to fetch the next one. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
  /** `null` on the last page (and past it). */
  readonly nextPage: number | null;
}

/** Page size when none is asked for, and the largest served (a larger `limit` is served as this). */
export const PAGING = { defaultLimit: 20, maxLimit: 100, maxPage: 1_000_000_000 } as const;

/** Rows to skip for `request` (for repository adapters). */
export function pageOffset(request: PageRequest): number {
  return (request.page - 1) * request.limit;
}

/** A Page from one page of `items` and the `total` of the list; `nextPage` is null on the last page. */
export function toPage<T>(items: readonly T[], total: number, request: PageRequest): Page<T> {
  const end = pageOffset(request) + items.length;
  return {
    items,
    total,
    page: request.page,
    perPage: request.limit,
    nextPage: items.length > 0 && end < total ? request.page + 1 : null,
  };
}
