import type { MenuCatalog } from '../menu/menu-catalog.js';
import type { Page } from '../shared/page.js';
import type { Product } from '../menu/product.js';
import { characterCount, Issues } from '../shared/validation.js';
import { SEARCH_LIMITS } from './normalize.js';
import type { PageInput } from '../shared/paging.js';
import { resolvePage } from '../shared/paging.js';

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
