/**
 * A shared database's menu as each instance reads it: the revision is asked of the store at most
 * once per `checkMs` (default 1 s), and the products are kept per revision, so menu reads and the
 * pricing of a placement cost no round trip (DECISIONS: another instance's 86 shows within 2 s).
 * A change made through this instance clears both at once, so it shows here at once.
 */
import type { Clock, MenuRepository, Product } from '@storefront/domain';
import type { ProductDraft } from '@storefront/domain/adapter-kit';

/** How often an instance asks the store for the menu's revision (DECISIONS allows 2 s). */
export const MENU_REVISION_CHECK_MS = 1000;

interface Products {
  readonly list: readonly Product[];
  readonly byId: ReadonlyMap<string, Product>;
}
interface Kept {
  readonly revision: string;
  readonly products: Promise<Products>;
}

export class RevisionCheckedMenu implements MenuRepository {
  private revisionRead: Promise<string> | null = null;
  private checkedAt = -Infinity;
  private kept: Kept | null = null;
  /** Bumped by every change made here: a read begun before it is not kept. */
  private generation = 0;

  constructor(
    private readonly store: MenuRepository,
    private readonly clock: Clock,
    private readonly checkMs = MENU_REVISION_CHECK_MS,
  ) {}

  revision(): Promise<string> {
    const now = this.clock.now().getTime();
    if (this.revisionRead !== null && now - this.checkedAt < this.checkMs) return this.revisionRead;
    const generation = this.generation;
    const read = this.store.revision();
    this.revisionRead = read;
    this.checkedAt = now;
    read.catch(() => {
      // A failed check must not stick: the next reader asks again.
      if (this.revisionRead === read) this.revisionRead = null;
    });
    return read.then((revision) => {
      if (generation !== this.generation && this.revisionRead === read) this.revisionRead = null;
      return revision;
    });
  }

  async list(): Promise<readonly Product[]> {
    return (await this.products()).list;
  }

  async findByIds(productIds: readonly string[]): Promise<readonly Product[]> {
    const { byId } = await this.products();
    return productIds.flatMap((id) => byId.get(id) ?? []);
  }

  async upsertByName(drafts: readonly ProductDraft[]): Promise<readonly Product[]> {
    try {
      return await this.store.upsertByName(drafts);
    } finally {
      this.forget();
    }
  }

  async setAvailability(productId: string, available: boolean): Promise<Product | null> {
    try {
      return await this.store.setAvailability(productId, available);
    } finally {
      this.forget();
    }
  }

  /** The products at the current revision (read after the revision, so never older than it). */
  private async products(): Promise<Products> {
    const generation = this.generation;
    const revision = await this.revision();
    const kept = this.kept;
    if (kept !== null && kept.revision === revision) return kept.products;
    const products = this.store.list().then((list) => ({ list, byId: new Map(list.map((p) => [p.productId, p])) }));
    if (generation === this.generation) {
      const entry = { revision, products };
      this.kept = entry;
      products.catch(() => {
        if (this.kept === entry) this.kept = null;
      });
    }
    return products;
  }

  private forget(): void {
    this.generation++;
    this.revisionRead = null;
    this.kept = null;
  }
}
