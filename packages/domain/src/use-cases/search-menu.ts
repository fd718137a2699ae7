import type { MenuCatalog } from '../menu-catalog.js';
import type { Page } from '../model/page.js';
import type { Product } from '../model/product.js';
import { characterCount, Issues } from '../model/validation.js';
import { SEARCH_LIMITS } from '../search/normalize.js';
import type { PageInput } from './paging.js';
import { resolvePage } from './paging.js';

/** The text to find (required, at most 100 characters) and the page wanted. */
export interface SearchMenuInput extends PageInput {
  readonly q: string | undefined;
}

/** Text search over the menu; see MenuSearchIndex for the matching and ranking rules. */
export class SearchMenu {
  constructor(private readonly catalog: MenuCatalog) {}

  async execute(input: SearchMenuInput): Promise<Page<Product>> {
    const issues = new Issues();
    const q = input.q;
    if (q === undefined || q.trim() === '') issues.add('q', 'is required and must not be blank');
    else if (characterCount(q) > SEARCH_LIMITS.maxQueryLength) issues.add('q', `must be at most ${SEARCH_LIMITS.maxQueryLength} characters`);
    const page = resolvePage(input, issues);
    issues.throwIfAny();
    const snapshot = await this.catalog.snapshot();
    return snapshot.index.search(q!, page);
  }
}
