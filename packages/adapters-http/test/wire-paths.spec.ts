import { describe, it } from 'mocha';
import { expect } from 'chai';
import { wirePath } from '../src/wire-paths.js';

describe('wirePath', () => {
  it('names a domain field as the interface does', () => {
    expect(wirePath('items.3.productId')).to.equal('items.3.product_id');
    expect(wirePath('fulfilment.address.postalCode')).to.equal('fulfilment.address.postal_code');
    expect(wirePath('refreshToken')).to.equal('refresh_token');
    expect(wirePath('idempotencyKey')).to.equal('Idempotency-Key');
  });

  it('leaves a name the wire already uses as it is', () => {
    for (const path of ['items.0.product_id', 'If-Match', 'fulfilment.time', 'option_groups.1.options.0.price_delta', '']) {
      expect(wirePath(path)).to.equal(path);
    }
  });
});
