/**
 * The API reference as a reader sees it, in real headless Chromium: the page at /docs lists every
 * operation of packages/adapters-http/openapi.yaml, "Try it out" → "Execute" reaches the live service, and nothing
 * is loaded from elsewhere or refused by the page's Content-Security-Policy. It also renders
 * docs/images/api-reference.png, the picture the README shows.
 *
 * Needs Debian's chromium at /usr/bin/chromium (.ci/run installs it); without it the suite is
 * skipped with one warning.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { repositoryRoot } from '../contract/openapi.js';
import { getMenu, useServer } from '../e2e/support.js';
import { documentedOperations } from './support.js';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = join(repositoryRoot(), 'docs', 'images', 'api-reference.png');

describe('API reference in headless Chromium', function () {
  this.timeout(60_000);
  const h = useServer();
  let browser: Browser | undefined;
  let page: Page;
  /** Console errors (CSP violations among them), page errors, and requests to another origin. */
  const problems: string[] = [];

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.warn(`SKIPPED: the API reference browser test needs Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);
      this.skip();
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 1500 } });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      if (!request.url().startsWith(`${h.url}/`)) problems.push(`request elsewhere: ${request.url()}`);
    });
    await page.goto(`${h.url}/docs`);
    await page.locator('.opblock').first().waitFor();
  });

  after(async () => {
    await browser?.close();
  });

  it('lists every operation of packages/adapters-http/openapi.yaml, and nothing else', async () => {
    const listed = await page.locator('.opblock').evaluateAll((blocks) =>
      blocks.map((block) => `${block.querySelector('.opblock-summary-method')?.textContent ?? '?'} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '?'}`),
    );
    expect(listed.sort()).to.deep.equal(documentedOperations());
  });

  it('runs "Try it out" → "Execute" on GET /api/products against the live service', async () => {
    const products = operation(page, 'GET', '/api/products');
    await products.locator('.opblock-summary').click();
    await products.getByRole('button', { name: 'Try it out' }).click();
    await products.getByRole('button', { name: 'Execute' }).click();
    const live = products.locator('.live-responses-table');
    await live.waitFor();
    expect(await products.locator('.request-url').innerText()).to.include(`${h.url}/api/products`);
    expect(await live.locator('tbody .response-col_status').first().innerText()).to.equal('200');
    const body = await live.locator('.response-col_description .highlight-code').first().innerText();
    const menu = await getMenu(h.url);
    expect(menu.length).to.be.greaterThan(0);
    expect(body).to.include(`"name": ${JSON.stringify(menu[0]!.name)}`);
  });

  it('loads nothing from another origin and reports no error (a CSP violation is one)', () => {
    expect(problems).to.deep.equal([]);
  });

  it(`renders the top of the page, the executed request included, to docs/images/api-reference.png`, async () => {
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    // From the top of the page down to the end of the live response's body.
    const response = await operation(page, 'GET', '/api/products').locator('.live-responses-table .highlight-code').first().boundingBox();
    const scrolled = Number(await page.evaluate('window.scrollY'));
    const bottom = response === null ? 1500 : Math.ceil(response.y + scrolled + response.height) + 16;
    await page.screenshot({ path: SCREENSHOT, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: Math.min(bottom, 3000) } });
    expect(existsSync(SCREENSHOT)).to.equal(true);
  });
});

function operation(page: Page, method: string, path: string): Locator {
  return page
    .locator('.opblock')
    .filter({ has: page.locator('.opblock-summary-method', { hasText: new RegExp(`^${method}$`) }) })
    .filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
}
