/** Test data: a paid order with every kind of history entry, for the specs of this package (as adapters-memory has it). */
import type { Order } from '@storefront/domain';
import { applyOrderMove, planMove, planPaymentChange, type OrderPayment } from '@storefront/domain/adapter-kit';
import { anUnpaidOrder } from '@storefront/testing';

const address = { line1: 'Karl-Liebknecht-Str. 8', city: 'Berlin', postalCode: '10178', lat: 52.5219, lng: 13.4132 };

/** A delivery order paid, then refunded in part: a refund asked for (v3) and settled (v4). */
export function aRefundedDeliveryOrder(): Order {
  const unpaid = anUnpaidOrder({}, { fulfilment: { type: 'delivery', time: 'asap', promisedAt: new Date(), address, zone: 'Mitte' } });
  const t = unpaid.createdAt.getTime();
  const authorized: OrderPayment = { ...unpaid.payment!, status: 'authorized', clientSecret: null, checkAt: null };
  const placed = applyOrderMove(unpaid, { ...planMove(unpaid, { to: 'placed', by: 'payment' }, new Date(t + 1000)), payment: authorized });
  const refund = { refundId: 'rf_1', providerRefundId: null, amount: 100, reason: 'cold', status: 'pending' as const, createdAt: new Date(t + 2000), fingerprint: 'f' };
  const asked: OrderPayment = { ...authorized, status: 'partially_refunded', amountCaptured: authorized.amount, amountRefunded: 100, refunds: [refund], checkAt: new Date(t + 122_000) };
  const refunded = applyOrderMove(placed, planPaymentChange(placed, asked, { refundId: 'rf_1' }, new Date(t + 2000)));
  const settled: OrderPayment = { ...asked, refunds: [{ ...refund, providerRefundId: 're_1', status: 'succeeded' }], checkAt: null };
  return applyOrderMove(refunded, planPaymentChange(refunded, settled, {}, new Date(t + 3000)));
}

