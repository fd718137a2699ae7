/**
 * The fulfilment limits live once in the domain (FULFILMENT_LIMITS, DEFAULT_SLOT_RULES' companions)
 * and are stated again by packages/adapters-http/openapi.yaml, which checks requests before the domain does: the two
 * must agree, or a request would pass one check and fail the other.
 */
import { readFileSync } from 'node:fs';
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { parse } from 'yaml';
import { FULFILMENT_LIMITS, FULFILMENT_TYPES } from '@storefront/domain/adapter-kit';
import { OPENAPI_PATH } from './document-path.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('packages/adapters-http/openapi.yaml and the domain agree on the fulfilment limits', () => {
  const schemas = (parse(readFileSync(OPENAPI_PATH, 'utf8')) as Json)['components']['schemas'] as Json;

  it('states every address field with the domain\'s lengths', () => {
    const address = schemas['DeliveryAddress']['properties'] as Json;
    const fields = { line1: 'line1', line2: 'line2', city: 'city', postal_code: 'postalCode', instructions: 'instructions' } as const;
    for (const [field, limit] of Object.entries(fields)) {
      expect(address[field]['maxLength'], field).to.equal(FULFILMENT_LIMITS[limit].max);
      expect(address[field]['minLength'], field).to.equal(1);
    }
    expect([address['lat']['minimum'], address['lat']['maximum'], address['lng']['minimum'], address['lng']['maximum']]).to.deep.equal([-90, 90, -180, 180]);
  });

  it('states the tip\'s range and the fulfilment types', () => {
    const tip = schemas['OrderRequest']['properties']['tip'] as Json;
    expect([tip['minimum'], tip['maximum']]).to.deep.equal([FULFILMENT_LIMITS.tip.min, FULFILMENT_LIMITS.tip.max]);
    expect(schemas['FulfilmentRequest']['properties']['type']['enum']).to.deep.equal([...FULFILMENT_TYPES]);
    expect(schemas['Fulfilment']['properties']['type']['enum']).to.deep.equal([...FULFILMENT_TYPES]);
  });
});
