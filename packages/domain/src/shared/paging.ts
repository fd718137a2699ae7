import { Issues, isIntegerIn } from './validation.js';
import type { PageRequest } from './page.js';
import { PAGING } from './page.js';

/** Paging as a client asks for it: both optional (page 1, 20 rows). */
export interface PageInput {
  readonly page?: number | undefined;
  readonly limit?: number | undefined;
}

/** Defaults page 1 and limit 20; a limit above 100 is served as 100; below 1 is invalid. */
export function resolvePage(input: PageInput, issues: Issues): PageRequest {
  const page = input.page ?? 1;
  const limit = input.limit ?? PAGING.defaultLimit;
  if (!isIntegerIn(page, 1, PAGING.maxPage)) issues.add('page', `must be an integer from 1 to ${PAGING.maxPage}`);
  if (!isIntegerIn(limit, 1, Number.MAX_SAFE_INTEGER)) issues.add('limit', 'must be an integer of 1 or more');
  return { page, limit: Math.min(limit, PAGING.maxLimit) };
}
