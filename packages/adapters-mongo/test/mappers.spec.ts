import { applyOrderMove, assignOptionIds, planMove, planPaymentChange, type OrderPayment } from '@storefront/domain/adapter-kit';
import { aCustomer, aPizzaDraft, aProductDraft, aSession, aTaxedOrder, anIdempotencyClaim, anOrder, anOrderLine, anUnpaidOrder } from '@storefront/testing';
import type { Product } from '@storefront/domain';
import { expect } from 'chai';
import { BSON, Long, type Document } from 'mongodb';
import { describe, it } from 'mocha';
import { toCustomer, toCustomerDocument } from '../src/customer-mapper.js';
import { toIdempotencyDocument, toIdempotencyRecord } from '../src/idempotency-record.js';
import { toInsertedOrderDocument, toOrder, toOrderDocument, toStatusChange, type OrderDocument } from '../src/order-mapper.js';
import { productNameKey } from '@storefront/domain/adapter-kit';
import { freezeProduct, productFields, toProduct } from '../src/product-mapper.js';
import { toSession, toSessionDocument } from '../src/session-mapper.js';

describe('document mappers', () => {
  it('store an order under its id and give it back exactly', () => {
    const order = anOrder({ items: [anOrderLine(), anOrderLine({ name: 'Crème brûlée' })] });
    const document = toOrderDocument(order);
    expect(document).to.include({ _id: order.orderId, customerId: order.customerId });
    expect(toOrder(document)).to.deep.equal(order);
  });

  it('store where an order is in the kitchen, its history and its reason, and give them back exactly', () => {
    const placed = anOrder();
    const accepted = applyOrderMove(placed, planMove(placed, { to: 'accepted', by: 'staff' }, new Date(placed.createdAt.getTime() + 60_000)));
    const cancelled = applyOrderMove(
      accepted,
      planMove(accepted, { to: 'cancelled', by: 'staff', reason: 'Out of dough' }, new Date(placed.createdAt.getTime() + 120_000)),
    );
    const document = toOrderDocument(cancelled);
    expect(document).to.include({ status: 'cancelled', version: 3, reason: 'Out of dough' });
    expect(document.statusHistory!.map((change) => change.status)).to.deep.equal(['placed', 'accepted', 'cancelled']);
    expect(toOrder(document)).to.deep.equal(cancelled);
    expect(toOrder(toOrderDocument(placed))).to.not.have.property('reason');
  });

  it('write a new order unpublished, and keep the outbox fields out of the order read back', () => {
    const order = anOrder();
    const document = toInsertedOrderDocument(order);
    expect(document).to.include({ publishedVersion: 0, eventsPending: true });
    expect(toOrder(document)).to.deep.equal(order);
    expect(toOrder({ ...document, publishedVersion: 3 })).to.deep.equal(order);
    expect(toOrderDocument(order)).to.not.have.any.keys('publishedVersion', 'eventsPending');
  });

  it('read an order stored before the kitchen lifecycle as placed at its creation, version 1', () => {
    const { status: _s, version: _v, updatedAt: _u, statusHistory: _h, ...legacy } = toOrderDocument(anOrder());
    const order = toOrder(legacy);
    expect(order).to.deep.include({ status: 'placed', version: 1, updatedAt: legacy.createdAt });
    expect(order.statusHistory).to.deep.equal([{ status: 'placed', at: legacy.createdAt }]);
    expect(order).to.not.have.property('reason');
  });

  it('store a delivery order with its charges, address and promise, and give it back exactly', () => {
    const createdAt = new Date('2030-01-16T12:00:00Z');
    const order = anOrder({
      createdAt,
      subtotal: 2500,
      deliveryFee: 250,
      tip: 200,
      amount: 2950,
      fulfilment: {
        type: 'delivery',
        time: '2030-01-16T13:07:00.000Z',
        promisedAt: new Date('2030-01-16T13:00:00Z'),
        address: { line1: 'Karl-Liebknecht-Str. 8', city: 'Berlin', postalCode: '10178', lat: 52.5219, lng: 13.4132, instructions: 'Ring twice' },
        zone: 'Centre',
      },
    });
    const document = toOrderDocument(order);
    expect(document).to.deep.include({ promisedAt: new Date('2030-01-16T13:00:00Z'), deliveryFee: Long.fromNumber(250), tip: Long.fromNumber(200), subtotal: Long.fromNumber(2500) });
    expect(toOrder(document)).to.deep.equal(order);
  });

  it('read an order stored before fulfilment as pickup as soon as possible, promised when placed, subtotal = amount', () => {
    const { subtotal: _s, deliveryFee: _d, tip: _t, promisedAt: _p, fulfilment: _f, ...legacy } = toOrderDocument(anOrder({ amount: 1290 }));
    const order = toOrder(legacy);
    expect(order).to.deep.include({ subtotal: 1290, deliveryFee: 0, tip: 0, amount: 1290 });
    expect(order.fulfilment).to.deep.equal({ type: 'pickup', time: 'asap', promisedAt: legacy.createdAt });
  });

  it('store a customer with its role, and read an account stored before roles as a customer', () => {
    const staff = aCustomer({ role: 'staff' });
    expect(toCustomer(toCustomerDocument(staff))).to.deep.equal(staff);
    const { role: _role, ...legacy } = toCustomerDocument(aCustomer());
    expect(toCustomer(legacy).role).to.equal('customer');
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
    expect(Object.keys(document.items[0]!)).to.have.members(['productId', 'name', 'quantity', 'unitPrice', 'lineTotal', 'taxRate']);
  });

  it('write only the known product fields and hand out frozen products', () => {
    const draft = { ...aProductDraft({ name: 'Soupe À L’Oignon' }), extra: true };
    const fields = productFields(draft, []);
    expect(Object.keys(fields)).to.have.members(['name', 'description', 'category', 'price', 'currency', 'tags', 'available', 'optionGroups']);
    expect(productNameKey(draft.name)).to.equal('soupe à l’oignon');
    const product = freezeProduct('prd_1', fields);
    expect(Object.isFrozen(product) && Object.isFrozen(product.tags) && Object.isFrozen(product.optionGroups)).to.equal(true);
  });

  it('store a product with its option groups, camelCase with their ids, and give them back exactly', async () => {
    const draft = aPizzaDraft();
    const groups = await assignOptionIds(draft.name, draft.optionGroups);
    const document = { _id: 'prd_1', nameKey: productNameKey(draft.name), ...productFields(draft, groups) };
    expect(document.optionGroups[0]).to.have.keys('groupId', 'name', 'min', 'max', 'options');
    expect(document.optionGroups[0]!.options[1]).to.deep.equal({ optionId: groups[0]!.options[1]!.optionId, name: 'Large', priceDelta: Long.fromNumber(400), available: true });
    const product = toProduct(document);
    expect(product.optionGroups).to.deep.equal(groups);
    expect(Object.isFrozen(product.optionGroups[1]!.options[2])).to.equal(true);
  });

  it('read a product stored before option groups with none', () => {
    const { optionGroups: _groups, ...legacy } = { _id: 'prd_1', nameKey: 'soup', ...productFields(aProductDraft({ name: 'Soup' }), []) };
    expect(toProduct(legacy).optionGroups).to.deep.equal([]);
  });

  it('store the options of an order line as priced, and no options field on a line without', () => {
    const withOptions = anOrderLine({ options: [{ optionId: 'opt_a', name: 'Large', priceDelta: 400 }, { optionId: 'opt_b', name: 'Olives', priceDelta: 150 }] });
    const order = anOrder({ items: [withOptions, anOrderLine()] });
    const document = toOrderDocument(order);
    expect(document.items[0]!.options).to.deep.equal(withOptions.options.map((option) => ({ ...option, priceDelta: Long.fromNumber(option.priceDelta) })));
    expect(document.items[1]).to.not.have.property('options');
    expect(toOrder(document)).to.deep.equal(order);
  });

  it('store every amount of an order and a product as BSON int64, small or large', async () => {
    const line = anOrderLine({ unitPrice: 3_000_000_000, lineTotal: 6_000_000_000, quantity: 2, options: [{ optionId: 'opt_a', name: 'Large', priceDelta: -50 }] });
    const order = anOrder({ items: [line, anOrderLine({ unitPrice: 5, lineTotal: 5, quantity: 1 })], amount: 6_000_000_005 });
    const stored = BSON.deserialize(BSON.serialize(toOrderDocument(order)), { promoteLongs: false });
    const amounts = [stored['amount'], ...(stored['items'] as Document[]).flatMap((item) => [item['unitPrice'], item['lineTotal'], ...((item['options'] ?? []) as Document[]).map((o) => o['priceDelta'])])];
    expect(amounts).to.have.length(6);
    for (const amount of amounts) expect(amount).to.be.instanceOf(Long);
    const draft = aPizzaDraft({ price: 1290 });
    const product = BSON.deserialize(BSON.serialize(productFields(draft, await assignOptionIds(draft.name, draft.optionGroups))), { promoteLongs: false });
    expect(product['price']).to.be.instanceOf(Long);
    for (const group of product['optionGroups'] as Document[]) for (const option of group['options'] as Document[]) expect(option['priceDelta']).to.be.instanceOf(Long);
    // As the driver reads it back (promoteLongs): the order itself.
    expect(toOrder(BSON.deserialize(BSON.serialize(toOrderDocument(order))) as OrderDocument)).to.deep.equal(order);
  });

  it('read amounts stored as int32 or double (before every amount was int64) as the same numbers', () => {
    const order = anOrder({ items: [anOrderLine({ unitPrice: 3_000_000_000, lineTotal: 3_000_000_000, quantity: 1 })], amount: 3_000_000_000 });
    // What the first release wrote: plain numbers, int32 below 2^31 and double above.
    const legacy = { ...toOrderDocument(order), amount: 3_000_000_000, items: [{ ...toOrderDocument(order).items[0]!, unitPrice: 3_000_000_000, lineTotal: 3_000_000_000 }] };
    const read = toOrder(BSON.deserialize(BSON.serialize(legacy)) as OrderDocument);
    expect(read).to.deep.equal(order);
    const product = toProduct({ _id: 'prd_1', nameKey: 'soup', ...productFields(aProductDraft({ name: 'Soup', price: 450 }), []), price: 450 });
    expect(product.price).to.equal(450);
  });

  it("store an order's taxes (amounts int64) and its lines' rates, and give them back exactly", () => {
    for (const order of [aTaxedOrder(false), aTaxedOrder(true)]) {
      const stored = BSON.deserialize(BSON.serialize(toOrderDocument(order)), { promoteLongs: false });
      const taxes = stored['taxes'] as Document[];
      expect(taxes.map((line) => line['rate'])).to.deep.equal([700, 1900]);
      for (const amount of [stored['taxTotal'], ...taxes.flatMap((line) => [line['taxable'], line['tax']])]) expect(amount).to.be.instanceOf(Long);
      expect((stored['items'] as Document[]).map((item) => item['taxRate'])).to.deep.equal([700, 1900]);
      expect(toOrder(BSON.deserialize(BSON.serialize(toOrderDocument(order))) as OrderDocument)).to.deep.equal(order);
    }
  });

  it('read an order and its lines stored before taxes as untaxed: false, [], 0, lines at 0', () => {
    const order = anOrder({ items: [anOrderLine({ taxRate: 0 })] });
    const { pricesIncludeTax: _p, taxes: _t, taxTotal: _total, ...legacy } = toOrderDocument(order);
    const { taxRate: _rate, ...legacyLine } = legacy.items[0]!;
    expect(toOrder({ ...legacy, items: [legacyLine] })).to.deep.equal(order);
  });

  it("store a product's tax rate, and none for a product that takes the store's", () => {
    const rated = productFields(aProductDraft({ taxRate: 700 as NonNullable<Product['taxRate']> }), []);
    const unrated = productFields(aProductDraft(), []);
    expect(rated.taxRate).to.equal(700);
    expect(unrated).to.not.have.property('taxRate');
    expect(toProduct({ _id: 'prd_1', nameKey: 'a', ...rated }).taxRate).to.equal(700);
    expect(toProduct({ _id: 'prd_2', nameKey: 'b', ...unrated })).to.not.have.property('taxRate');
  });

  it('read an order line stored before options with none', () => {
    const document = toOrderDocument(anOrder());
    expect(toOrder(document).items[0]!.options).to.deep.equal([]);
  });

  describe("an order's card payment", () => {
    /** What a real server hands back: BSON both ways, int64 read as numbers (the driver's default). */
    const throughTheWire = (order: Parameters<typeof toOrderDocument>[0]) => toOrder(BSON.deserialize(BSON.serialize(toOrderDocument(order))) as OrderDocument);
    /** As stored: int64 kept as Long. */
    const stored = (order: Parameters<typeof toOrderDocument>[0]) => BSON.deserialize(BSON.serialize(toOrderDocument(order)), { promoteLongs: false });

    /** An order accepted, paid, then refunded twice (one settled, one pending), with the history of each change. */
    function aRefundedOrder() {
      const awaiting = anUnpaidOrder({ amount: 3_000_000_000 }, { amount: 3_000_000_000 });
      const at = (seconds: number) => new Date(awaiting.createdAt.getTime() + seconds * 1000);
      const authorized: OrderPayment = { ...awaiting.payment!, status: 'authorized', clientSecret: null, checkAt: null };
      const placed = applyOrderMove(awaiting, { ...planMove(awaiting, { to: 'placed', by: 'payment' }, at(30)), payment: authorized });
      const captured: OrderPayment = { ...authorized, status: 'captured', amountCaptured: 3_000_000_000 };
      const accepted = applyOrderMove(placed, { ...planMove(placed, { to: 'accepted', by: 'staff' }, at(60)), payment: captured });
      const refunds: OrderPayment['refunds'] = [
        { refundId: 'rf_1', providerRefundId: 're_1', amount: 500, reason: 'cold fries, sorry', status: 'succeeded', createdAt: at(90), fingerprint: 'f1' },
        { refundId: 'rf_2', providerRefundId: null, amount: 250, reason: 'no drink', status: 'pending', createdAt: at(120), fingerprint: 'f2' },
      ];
      const refunded: OrderPayment = { ...captured, status: 'partially_refunded', amountRefunded: 750, refunds, checkAt: at(240) };
      const afterRefund = applyOrderMove(accepted, planPaymentChange(accepted, refunded, { refundId: 'rf_2' }, at(120)));
      return applyOrderMove(afterRefund, planPaymentChange(afterRefund, { ...refunded, checkAt: null }, {}, at(180)));
    }

    it('is stored as a subdocument, amounts int64 and dates BSON dates, and given back exactly with its refunds', () => {
      const order = aRefundedOrder();
      const payment = stored(order)['payment'] as Document;
      expect(Object.keys(payment)).to.have.members(['provider', 'intentId', 'clientSecret', 'status', 'amount', 'currency', 'amountCaptured', 'amountRefunded', 'refunds', 'payBy', 'checkAt']);
      for (const amount of [payment['amount'], payment['amountCaptured'], payment['amountRefunded'], ...(payment['refunds'] as Document[]).map((r) => r['amount'])]) {
        expect(amount).to.be.instanceOf(Long);
      }
      expect(payment['payBy']).to.be.instanceOf(Date);
      expect(payment['checkAt']).to.equal(null);
      expect((payment['refunds'] as Document[]).map((r) => r['createdAt'])).to.satisfy((dates: unknown[]) => dates.every((d) => d instanceof Date));
      expect((payment['refunds'] as Document[])[1]).to.include({ providerRefundId: null, status: 'pending' });
      expect(throughTheWire(order)).to.deep.equal(order);
    });

    it('keeps a due check as a BSON date, and the client secret while awaiting', () => {
      const order = anUnpaidOrder();
      const payment = stored(order)['payment'] as Document;
      expect(payment['checkAt']).to.deep.equal(order.payment!.checkAt);
      expect(payment['clientSecret']).to.equal(order.payment!.clientSecret);
      expect(throughTheWire(order)).to.deep.equal(order);
    });

    it("keeps the history's payment-only entries with their note, and no note on the others", () => {
      const order = aRefundedOrder();
      const history = stored(order)['statusHistory'] as Document[];
      expect(history.map((entry) => entry['paymentChange'] ?? 'none')).to.deep.equal(['none', 'none', 'none', { refundId: 'rf_2' }, {}]);
      expect(throughTheWire(order).statusHistory).to.deep.equal(order.statusHistory);
      expect(throughTheWire(order).statusHistory[1]).to.not.have.property('paymentChange');
    });

    it("appends a move's entry with its payment note (what applyMove pushes), copied", () => {
      const order = anUnpaidOrder();
      const change = planPaymentChange(order, { ...order.payment!, checkAt: null }, { refundId: 'rf_9' }, new Date(order.createdAt.getTime() + 1000));
      const entry = toStatusChange(change);
      expect(entry).to.deep.equal({ status: 'awaiting_payment', at: change.at, paymentChange: { refundId: 'rf_9' } });
      expect(entry.paymentChange).to.not.equal(change.paymentChange);
      expect(toStatusChange(planPaymentChange(order, order.payment!, {}, change.at))).to.deep.equal({ status: 'awaiting_payment', at: change.at, paymentChange: {} });
      expect(toStatusChange(planMove(order, { to: 'placed', by: 'payment' }, change.at))).to.deep.equal({ status: 'placed', at: change.at });
    });

    it('is absent from an order without one, stored and read back (no `payment` key)', () => {
      const order = anOrder();
      expect(toOrderDocument(order)).to.not.have.property('payment');
      expect(stored(order)).to.not.have.property('payment');
      expect(throughTheWire(order)).to.not.have.property('payment');
      expect(throughTheWire(order)).to.deep.equal(order);
    });

    it('is copied, so later edits of the caller reach nothing stored, and extra properties are not written', () => {
      const order = anUnpaidOrder();
      const payment = { ...order.payment!, extra: 'x', refunds: [{ refundId: 'rf_1', providerRefundId: null, amount: 1, reason: 'r', status: 'pending' as const, createdAt: new Date(0), fingerprint: 'f', extra: 'y' }] };
      const document = toOrderDocument({ ...order, payment });
      payment.payBy.setTime(0);
      payment.refunds[0]!.createdAt.setTime(5);
      expect(document.payment!.payBy.getTime()).to.not.equal(0);
      expect(document.payment!.refunds[0]!.createdAt.getTime()).to.equal(0);
      expect(document.payment).to.not.have.property('extra');
      expect(document.payment!.refunds[0]).to.not.have.property('extra');
    });
  });

  it('store a session and give it back exactly', () => {
    const session = aSession({ previousTokenHashes: ['a', 'b'], revokedAt: new Date() });
    expect(toSession(toSessionDocument(session))).to.deep.equal(session);
    expect(toSession(toSessionDocument(aSession())).revokedAt).to.equal(null);
  });
});
