/**
 * The routes the HTTP app serves and the operations packages/adapters-http/openapi.yaml describes are the same set,
 * both ways: a route the document lacks, or an operation no route serves, fails here.
 */
import { after, before, describe, it } from 'mocha';
import { expect } from 'chai';
import type { Container } from 'inversify';
import { resolve } from '../../src/binding.js';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { TYPES } from '../../src/identifiers.js';
import { createLogger } from '../../src/logger.js';
import { OpenApiContract } from './openapi.js';

/** `/api/orders/:id` (router) → `/api/orders/{id}` (OpenAPI). */
function openApiPath(routerPath: string): string {
  return routerPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

describe('packages/adapters-http/openapi.yaml and the routes of the HTTP app', () => {
  let container: Container | undefined;
  let routes: string[] = [];
  const contract = OpenApiContract.fromFile();
  const documented = contract.operations();
  /** Operations served only in a setting (`x-served-when`), by name: the setting. */
  const optional = Object.fromEntries(
    Object.entries(contract.paths()).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => typeof (operation as Record<string, unknown> | null)?.['x-served-when'] === 'string')
        .map(([method, operation]) => [`${method.toUpperCase()} ${path}`, (operation as Record<string, unknown>)['x-served-when'] as string]),
    ),
  );

  before(() => {
    const config = loadConfig({ LOG_LEVEL: 'silent', SCRYPT_LOG_N: '10', PORT: '0' });
    container = createContainer(config, createLogger(config));
    routes = resolve(container, TYPES.HttpApp)
      .routes()
      .map((r) => `${r.method} ${openApiPath(r.path)}`);
  });

  after(async () => {
    await container?.unbindAllAsync();
  });

  it('reads a non-empty route table from the app the container builds', () => {
    expect(routes).to.include('GET /api/products');
    expect(new Set(routes).size, 'no route twice').to.equal(routes.length);
  });

  it('documents every route the app serves', () => {
    expect(routes.filter((r) => !documented.includes(r)), 'routes missing from packages/adapters-http/openapi.yaml').to.deep.equal([]);
  });

  it('serves every operation the document describes, but those served only in a setting this app is not in', () => {
    const always = documented.filter((o) => optional[o] === undefined);
    expect(always.filter((o) => !routes.includes(o)), 'operations no route serves').to.deep.equal([]);
  });

  it('names for each operation served only in some setting (`x-served-when`) the variable that turns it on', () => {
    expect(optional).to.deep.equal({ 'POST /api/payments/stripe/webhook': 'STOREFRONT_PAYMENTS=stripe' });
  });
});
