import { aProductDraft, aSession, anIdempotencyClaim, anOrder, anOrderLine } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { toIdempotencyDocument, toIdempotencyRecord } from '../src/idempotency-record.js';
import { toOrder, toOrderDocument } from '../src/order-mapper.js';
import { freezeProduct, productFields, productNameKey } from '../src/product-mapper.js';
import { toSession, toSessionDocument } from '../src/session-mapper.js';

describe('document mappers', () => {
  it('store an order under its id and give it back exactly', () => {
    const order = anOrder({ items: [anOrderLine(), anOrderLine({ name: 'Crème brûlée' })] });
    const document = toOrderDocument(order);
    expect(document).to.include({ _id: order.orderId, customerId: order.customerId });
    expect(toOrder(document)).to.deep.equal(order);
  });

  it('store an idempotency claim in flight and give back the same record, dates copied', () => {
    const claim = anIdempotencyClaim();
    const document = toIdempotencyDocument(claim);
    expect(document.state).to.equal('in_progress');
    const record = toIdempotencyRecord(document);
    expect(record).to.deep.equal({ ...claim, state: 'in_progress' });
    record.lockExpiresAt.setTime(0);
    expect(document.lockExpiresAt.getTime()).to.equal(claim.lockExpiresAt.getTime());
  });

  it('copy an order, so later edits of the caller reach nothing stored', () => {
    const order = anOrder();
    const document = toOrderDocument({ ...order, items: [{ ...order.items[0]!, extra: 'x' } as never] });
    order.createdAt.setTime(0);
    expect(document.createdAt.getTime()).to.not.equal(0);
    expect(Object.keys(document.items[0]!)).to.have.members(['productId', 'name', 'quantity', 'unitPrice', 'lineTotal']);
  });

  it('write only the known product fields and hand out frozen products', () => {
    const draft = { ...aProductDraft({ name: 'Soupe À L’Oignon' }), extra: true };
    expect(Object.keys(productFields(draft))).to.have.members(['name', 'description', 'category', 'price', 'currency', 'tags', 'available']);
    expect(productNameKey(draft.name)).to.equal('soupe à l’oignon');
    const product = freezeProduct('prd_1', draft);
    expect(Object.isFrozen(product) && Object.isFrozen(product.tags)).to.equal(true);
  });

  it('store a session and give it back exactly', () => {
    const session = aSession({ previousTokenHashes: ['a', 'b'], revokedAt: new Date() });
    expect(toSession(toSessionDocument(session))).to.deep.equal(session);
    expect(toSession(toSessionDocument(aSession())).revokedAt).to.equal(null);
  });
});
