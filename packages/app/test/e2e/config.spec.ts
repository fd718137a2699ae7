import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Env } from './support.js';
import { startServer, writeMenuFile } from './support.js';

/** startStorefront must refuse the configuration with a message that names `variable`. */
async function expectRefused(env: Env, variable: string): Promise<void> {
  let started: Awaited<ReturnType<typeof startServer>> | undefined;
  let failure: unknown;
  try {
    started = await startServer(env);
  } catch (error) {
    failure = error;
  }
  if (started !== undefined) {
    await started.close();
    expect.fail(`the server started with ${JSON.stringify(env)}`);
  }
  expect(failure, 'an Error').to.be.instanceOf(Error);
  expect((failure as Error).message, 'the message names the variable').to.include(variable);
}

describe('e2e: configuration', function () {
  it('refuses to start with a PORT that is not a port number', async function () {
    await expectRefused({ PORT: 'abc' }, 'PORT');
    await expectRefused({ PORT: '70000' }, 'PORT');
  });

  it('refuses to start with a rate limit that is not a positive integer', async function () {
    await expectRefused({ RATE_LIMIT_MAX: 'lots' }, 'RATE_LIMIT_MAX');
    await expectRefused({ RATE_LIMIT_MAX: '0' }, 'RATE_LIMIT_MAX');
    await expectRefused({ RATE_LIMIT_WINDOW_SECONDS: '-1' }, 'RATE_LIMIT_WINDOW_SECONDS');
    await expectRefused({ LOGIN_RATE_LIMIT_MAX: '2.5' }, 'LOGIN_RATE_LIMIT_MAX');
  });

  it('refuses to start with a bad scrypt cost, log level or token key', async function () {
    await expectRefused({ SCRYPT_LOG_N: 'abc' }, 'SCRYPT_LOG_N');
    await expectRefused({ LOG_LEVEL: 'chatty' }, 'LOG_LEVEL');
    await expectRefused({ TOKEN_SECRET_KEY: 'not-a-key' }, 'TOKEN_SECRET_KEY');
  });

  it('refuses to start with a menu file that does not exist', async function () {
    await expectRefused({ STOREFRONT_MENU_FILE: '/nonexistent/storefront/menu.json' }, 'STOREFRONT_MENU_FILE');
  });

  it('refuses to start with a menu file that is not a valid menu', async function () {
    for (const document of ['{"products": [', { products: [{ name: 'Free Lunch', category: 'Mains', price: -1, currency: 'USD' }] }, { dishes: [] }]) {
      const file = writeMenuFile(document);
      try {
        let started: Awaited<ReturnType<typeof startServer>> | undefined;
        let failure: unknown;
        try {
          started = await startServer({ STOREFRONT_MENU_FILE: file.path });
        } catch (error) {
          failure = error;
        }
        if (started !== undefined) {
          await started.close();
          expect.fail(`the server started with the menu ${JSON.stringify(document)}`);
        }
        expect(failure).to.be.instanceOf(Error);
      } finally {
        file.cleanup();
      }
    }
  });

  it('refuses to start with a tax rate that is not basis points from 0 to 10000, or a prices-include-tax that is not a boolean', async function () {
    await expectRefused({ STOREFRONT_TAX_RATE: '7.5' }, 'STOREFRONT_TAX_RATE');
    await expectRefused({ STOREFRONT_DELIVERY_FEE_TAX_RATE: '10001' }, 'STOREFRONT_DELIVERY_FEE_TAX_RATE');
    await expectRefused({ STOREFRONT_PRICES_INCLUDE_TAX: 'included' }, 'STOREFRONT_PRICES_INCLUDE_TAX');
  });

  it('refuses to start with a menu file whose product has a bad tax_rate, naming the file\'s variable, the product and the rule', async function () {
    const file = writeMenuFile({ products: [{ name: 'Soup', category: 'Starters', price: 450, currency: 'USD', tax_rate: 700 }, { name: 'Lemonade', category: 'Drinks', price: 300, currency: 'USD', tax_rate: 19.5 }] });
    try {
      await expectRefused({ STOREFRONT_MENU_FILE: file.path }, 'STOREFRONT_MENU_FILE');
      await expectRefused({ STOREFRONT_MENU_FILE: file.path }, 'products.1.tax_rate Lemonade: must be a whole number of basis points from 0 to 10000');
    } finally {
      file.cleanup();
    }
  });

  it('starts on an ephemeral port and stops cleanly', async function () {
    const server = await startServer();
    expect(server.port).to.be.a('number').and.above(0);
    expect(server.url).to.include(String(server.port));
    const res = await fetch(`${server.url.replace(/\/+$/, '')}/api/status`);
    expect(res.status).to.equal(200);
    await server.close();
    let refused = false;
    try {
      await fetch(`${server.url.replace(/\/+$/, '')}/api/status`);
    } catch {
      refused = true;
    }
    expect(refused, 'the port is closed after close()').to.equal(true);
  });
});
