/**
 * Handlers are typed by openapi.yaml: reading a field the document lacks does not compile. The
 * `@ts-expect-error` lines are the test (the build fails when such a read compiles); the runtime
 * part checks the route is served by the operation it names.
 */
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { checkOf } from '../src/dispatch.js';
import { json } from '../src/reply.js';
import { post } from '../src/route.js';

describe('typed handler input', () => {
  it('gives a handler its operation\'s fields and nothing else', () => {
    const route = post('/api/orders', 'placeOrder', { retry: 'x' }, (_exchange, { body, query }) => {
      const quantity: number = body.items[0]!.quantity;
      // @ts-expect-error -- the order body has no `coupon`
      const coupon: unknown = body.coupon;
      // @ts-expect-error -- placing an order takes no query parameter
      const page: unknown = query.page;
      return json(200, { quantity, coupon, page });
    });
    expect(checkOf(route.operation!).path).to.equal('/api/orders');
  });
});
