import { expect } from 'chai';
import { describe, it } from 'mocha';
import { loadApiReference } from '../../src/api-reference.js';
import { ConfigError } from '../../src/config.js';
import { openApiDocument, swaggerUiFile } from './support.js';

describe('loadApiReference', () => {
  it('reads packages/adapters-http/openapi.yaml and Swagger UI from the installed swagger-ui-dist', async () => {
    const reference = loadApiReference();
    expect(reference.document).to.deep.equal(openApiDocument());
    expect((await reference.asset('swagger-ui.css')).equals(swaggerUiFile('swagger-ui.css'))).to.equal(true);
  });

  it('stops the start naming STOREFRONT_DOCS when the document cannot be read', () => {
    let error: unknown;
    try {
      loadApiReference('/nonexistent/openapi.yaml');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as ConfigError).issues.map((issue) => issue.variable)).to.deep.equal(['STOREFRONT_DOCS']);
    expect((error as ConfigError).message).to.match(/^The API reference cannot be served .*; set STOREFRONT_DOCS=false to start without it$/);
  });
});
