import { aProductDraft, describeMenuRepositoryContract } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { usePostgresAdapters } from './postgres-adapters.js';

describe('PostgresMenuRepository', () => {
  const { adapters } = usePostgresAdapters();
  describeMenuRepositoryContract('PostgresMenuRepository', async () => adapters().menu);

  // DECISIONS, "Restarts never undo the kitchen's changes" (until the menu contract holds it for every store).
  it("keeps the kitchen's availability when the menu file is loaded again, and takes the file's for a new dish", async () => {
    const { menu } = adapters();
    const [dish] = await menu.upsertByName([aProductDraft({ available: true })]);
    await menu.setAvailability(dish!.productId, false);
    const [again, added] = await menu.upsertByName([{ ...aProductDraft({ available: true }), name: dish!.name, price: 990 }, aProductDraft({ available: false })]);
    expect(again).to.deep.include({ productId: dish!.productId, available: false, price: 990 });
    expect(added!.available).to.equal(false);
  });
});
