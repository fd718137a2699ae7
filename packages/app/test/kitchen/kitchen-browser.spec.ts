/**
 * The kitchen display as cooks use it, in real headless Chromium against the real service: two
 * screens signed in as the demo kitchen follow orders placed through the API, a move on one shows
 * on the other, a conflicting move is refused with a message, a restart of the service shows the
 * banner and the board comes back with nothing doubled, a customer is refused, and axe-core finds
 * no serious accessibility problem. It also renders docs/images/kitchen.png, the README's picture.
 *
 * The "restart" is a second server on the same port over the same memory store (sessions and the
 * event log live there, as they would in MongoDB and Redis), with the same token key.
 *
 * Needs Debian's chromium at /usr/bin/chromium (.ci/run installs it); without it the suite is
 * skipped with one warning.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createMemoryAdapters, type MemoryAdapters } from '@storefront/adapters-memory';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repositoryRoot } from '../contract/openapi.js';
import { TYPES } from '../../src/identifiers.js';
import { memoryOnly } from '../mongo-mode.js';
import { ALICE, call, login } from '../e2e/support.js';
import { newSigningKey } from '../e2e/tokens.js';
import { composeStorefront, type ComposedServer } from '../reliability/support.js';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = join(repositoryRoot(), 'docs', 'images', 'kitchen.png');
const KITCHEN = { email: 'kitchen@example.com', password: 'kitchen-password' } as const;
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Product {
  product_id: string;
  name: string;
  available: boolean;
  option_groups: { min: number; options: { option_id: string; available: boolean }[] }[];
}

describe('Kitchen display in headless Chromium', function () {
  memoryOnly(this, 'its "restart" is a second server on the same memory store');
  this.timeout(60_000);
  const store: MemoryAdapters = createMemoryAdapters();
  const key = newSigningKey().paserk;
  let server: ComposedServer | undefined;
  let base = '';
  let browser: Browser | undefined;
  let screens: Page[] = [];
  let customer = '';
  let staff = '';
  let menu: Product[] = [];
  /** CSP violations, script errors and requests to another origin, on every screen. */
  const problems: string[] = [];

  async function serve(seed: boolean, port?: number): Promise<void> {
    server = await composeStorefront(
      { TOKEN_SECRET_KEY: key, STOREFRONT_DEMO_DATA: String(seed) },
      (container) => container.rebind<MemoryAdapters>(TYPES.MemoryAdapters).toConstantValue(store),
      port === undefined ? {} : { port },
    );
    base = server.url;
  }

  async function screen(width = 1280, height = 800): Promise<Page> {
    const page = await browser!.newPage({ viewport: { width, height } });
    page.on('console', (message) => {
      // A refused connection (the restart) or a 412 is logged by Chromium as an error; a CSP violation says "Content Security Policy".
      if (message.type() === 'error' && /Content Security Policy|Refused to/.test(message.text())) problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      if (!request.url().startsWith(`${base}/`) && !request.url().startsWith('data:')) problems.push(`request elsewhere: ${request.url()}`);
    });
    await page.goto(`${base}/kitchen`);
    return page;
  }

  async function signIn(page: Page, account: { email: string; password: string }): Promise<void> {
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /** Places one line of `product` as alice, with the first option of each required group (of every group with `extras`). */
  async function place(product: Product, quantity = 1, extras = false): Promise<string> {
    const options = product.option_groups.filter((group) => extras || group.min > 0).map((group) => group.options.find((option) => option.available)!.option_id);
    const res = await call(base, '/api/orders', { token: customer, json: { items: [{ product_id: product.product_id, quantity, ...(options.length > 0 ? { options } : {}) }] } });
    expect(res.status, res.text).to.equal(201);
    return res.body.order_id as string;
  }

  async function move(orderId: string, status: string): Promise<void> {
    const res = await call(base, `/api/staff/orders/${orderId}/status`, { token: staff, json: { status } });
    expect(res.status, res.text).to.equal(200);
  }

  const card = (page: Page, orderId: string) => page.locator(`[data-order-id="${orderId}"]`);
  const column = (page: Page, status: string) => page.locator(`.column[data-status="${status}"]`);

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.warn(`SKIPPED: the kitchen display browser test needs Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);
      this.skip();
    }
    await serve(true);
    customer = (await login(base, ALICE.email, ALICE.password)).access_token;
    staff = (await login(base, KITCHEN.email, KITCHEN.password)).access_token;
    menu = ((await call(base, '/api/products')).body.products as Product[]).filter((product) => product.available);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    screens = [await screen(), await screen()];
    for (const page of screens) {
      await signIn(page, KITCHEN);
      await page.locator('.column').first().waitFor();
    }
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows an order placed through the API on both screens within 1 s, with its items', async () => {
    const id = await place(menu[0]!, 2);
    await Promise.all(screens.map((page) => card(page, id).waitFor({ timeout: 1_000 })));
    for (const page of screens) {
      await column(page, 'placed').locator(`[data-order-id="${id}"]`).waitFor({ timeout: 100 });
      expect(await card(page, id).innerText()).to.include(`2× ${menu[0]!.name}`).and.include('Pickup');
    }
  });

  it('moves an order accepted on one screen to Accepted on the other', async () => {
    const id = await place(menu[1]!);
    await Promise.all(screens.map((page) => card(page, id).waitFor({ timeout: 1_000 })));
    await card(screens[0]!, id).getByRole('button', { name: /^Accept order/ }).click();
    await column(screens[1]!, 'accepted').locator(`[data-order-id="${id}"]`).waitFor({ timeout: 2_000 });
    await column(screens[0]!, 'accepted').locator(`[data-order-id="${id}"]`).waitFor({ timeout: 2_000 });
  });

  it('refuses a move made on a card another screen changed meanwhile (412), says so and reloads the card', async () => {
    const id = await place(menu[2]!);
    const page = screens[1]!;
    await card(page, id).getByRole('button', { name: /^Accept order/ }).waitFor({ timeout: 1_000 });
    // The other screen wins the race: the move lands just before this screen's request.
    await page.route('**/api/staff/orders/*/status', async (route) => {
      await move(id, 'accepted');
      await route.continue();
    });
    try {
      await card(page, id).getByRole('button', { name: /^Accept order/ }).click();
      const notice = column(page, 'accepted').locator(`[data-order-id="${id}"] .notice`);
      await notice.waitFor({ timeout: 2_000 });
      expect(await notice.innerText()).to.include('changed on another screen');
    } finally {
      await page.unroute('**/api/staff/orders/*/status');
    }
  });

  it('asks for a reason before rejecting, and sends it', async () => {
    const id = await place(menu[3]!);
    const page = screens[0]!;
    await card(page, id).getByRole('button', { name: /^Reject order/ }).click();
    await page.getByLabel('Reason (the customer sees it)').fill('Out of dough');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await Promise.all(screens.map((screen) => card(screen, id).waitFor({ state: 'detached', timeout: 2_000 })));
    const order = await call(base, `/api/orders/${id}`, { token: staff });
    expect(order.body.status).to.equal('rejected');
    expect(order.body.reason).to.equal('Out of dough');
  });

  it('shows the banner while the service restarts, then recovers the board with nothing doubled or lost', async () => {
    const shown = async (page: Page): Promise<string[]> => (await page.locator('[data-order-id]').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-order-id')!))).sort();
    const before = await shown(screens[0]!);
    expect(before.length).to.be.greaterThan(1);
    const port = Number(new URL(base).port);
    const reopening = screens[0]!.waitForRequest((request) => request.url().endsWith('/api/staff/events'));
    await server!.close();
    server = undefined;
    for (const page of screens) await page.locator('#banner').waitFor({ state: 'visible', timeout: 5_000 });
    expect((await reopening).headers()['last-event-id'], 'the stream resumes after the last event seen').to.be.a('string').and.not.equal('');
    await serve(false, port);
    for (const page of screens) await page.locator('#banner').waitFor({ state: 'hidden', timeout: 10_000 });
    const id = await place(menu[4]!);
    await Promise.all(screens.map((page) => card(page, id).waitFor({ timeout: 2_000 })));
    for (const page of screens) expect(await shown(page)).to.deep.equal([...before, id].sort());
  });

  it('tells a customer account that it is not a staff account, and shows no board', async () => {
    const page = await screen();
    await signIn(page, ALICE);
    const error = page.locator('#sign-in-error');
    await error.filter({ hasText: 'not a staff account' }).waitFor({ timeout: 5_000 });
    expect(await page.locator('#workspace').isVisible()).to.equal(false);
    await page.close();
  });

  it('refreshes its access token before it expires, without a new sign-in, and uses the new one', async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
    // The page's timers run on a clock the test moves; the server's tokens keep real time.
    await page.clock.install();
    await page.goto(`${base}/kitchen`);
    await signIn(page, KITCHEN);
    await page.locator('.column').first().waitFor();
    const refreshed = page.waitForResponse((response) => response.url().endsWith('/api/auth/refresh'));
    await page.clock.runFor(14.5 * 60_000);
    const response = await refreshed;
    expect(response.status()).to.equal(200);
    const fresh = ((await response.json()) as { access_token: string }).access_token;
    const next = page.waitForRequest((request) => request.url().endsWith('/api/store'));
    await page.getByRole('button', { name: 'Menu & store' }).click();
    expect((await next).headers()['authorization']).to.equal(`Bearer ${fresh}`);
    expect(await page.locator('#sign-in').isVisible()).to.equal(false);
    await page.close();
  });

  it('chimes when a new order arrives, and stays silent once muted', async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
    // Counts the tones the page starts (an init script runs before the page, outside its CSP).
    await page.addInitScript('(() => { const make = AudioContext.prototype.createOscillator; window.tones = 0; AudioContext.prototype.createOscillator = function () { window.tones += 1; return make.call(this); }; })()');
    await page.goto(`${base}/kitchen`);
    await signIn(page, KITCHEN);
    await page.locator('.column').first().waitFor();
    const tones = async (): Promise<number> => Number(await page.evaluate('window.tones'));
    expect(await tones(), 'orders already there when the page opens ring nothing').to.equal(0);
    const loud = await place(menu[9]!);
    await card(page, loud).waitFor({ timeout: 2_000 });
    expect(await tones()).to.be.greaterThan(0);
    const before = await tones();
    await page.getByRole('button', { name: 'Sound on' }).click();
    expect(await page.getByRole('button', { name: 'Sound off' }).getAttribute('aria-pressed')).to.equal('true');
    const quiet = await place(menu[10]!);
    await card(page, quiet).waitFor({ timeout: 2_000 });
    expect(await tones()).to.equal(before);
    await page.close();
    // Off the board again, so that the picture below shows the board as it was.
    for (const id of [loud, quiet]) expect((await call(base, `/api/staff/orders/${id}/status`, { token: staff, json: { status: 'rejected', reason: 'Test order' } })).status).to.equal(200);
  });

  it('shows an order\'s card payment on its card: Paid, Part refunded', async () => {
    const [paid, refunded] = [await place(menu[0]!), await place(menu[1]!)];
    const page = await screen();
    // The service here takes no card payments: the list read is given the payments a card-paying store would show.
    const payment = (order: { amount: number; currency: string }, status: string, refunded: number) => ({
      provider: 'stripe', status, amount: order.amount, currency: order.currency.toLowerCase(), amount_captured: order.amount,
      amount_refunded: refunded, payment_intent_id: 'pi_test', refunds: [],
    });
    await page.route((url) => url.pathname === '/api/staff/orders', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { orders: { order_id: string; amount: number; currency: string; payment?: unknown }[] };
      for (const order of body.orders) {
        if (order.order_id === paid) order.payment = payment(order, 'captured', 0);
        if (order.order_id === refunded) order.payment = payment(order, 'partially_refunded', 450);
      }
      await route.fulfill({ response, json: body });
    });
    await signIn(page, KITCHEN);
    await card(page, refunded).waitFor({ timeout: 2_000 });
    expect(await card(page, paid).locator('.payment').innerText()).to.equal('Paid');
    expect(await card(page, refunded).locator('.payment').innerText()).to.equal('Part refunded 4.50');
    await page.close();
    for (const id of [paid, refunded]) expect((await call(base, `/api/staff/orders/${id}/status`, { token: staff, json: { status: 'rejected', reason: 'Test order' } })).status).to.equal(200);
  });

  it('has no serious or critical axe-core violation, and every button has an accessible name', async () => {
    const page = screens[0]!;
    await page.getByRole('button', { name: 'Menu & store' }).click();
    await page.locator('#dishes li').first().waitFor();
    await page.evaluate(AXE);
    const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as { violations: { id: string; impact: string; nodes: unknown[] }[] };
    const serious = result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical' || violation.id === 'button-name');
    expect(serious.map((violation) => `${violation.id} (${violation.impact}, ${violation.nodes.length} nodes)`)).to.deep.equal([]);
    const unnamed = await page.locator('button:visible').evaluateAll((buttons) => buttons.filter((b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim() === '').length);
    expect(unnamed).to.equal(0);
    await page.getByRole('button', { name: 'Menu & store' }).click();
  });

  it('marks a dish unavailable from the panel, and the menu follows', async () => {
    const page = screens[1]!;
    const dish = menu[5]!;
    await page.getByRole('button', { name: 'Menu & store' }).click();
    await page.getByRole('checkbox', { name: dish.name }).uncheck();
    await page.locator('#panel-message').filter({ hasText: 'marked unavailable' }).waitFor({ timeout: 2_000 });
    const products = (await call(base, '/api/products')).body.products as Product[];
    expect(products.find((product) => product.product_id === dish.product_id)!.available).to.equal(false);
    await page.getByRole('checkbox', { name: dish.name }).check();
    await page.locator('#panel-message').filter({ hasText: 'available again' }).waitFor({ timeout: 2_000 });
    await page.getByRole('button', { name: 'Menu & store' }).click();
  });

  it('fits a 768×1024 tablet: every column on screen, nothing wider than it', async () => {
    const page = await screen(768, 1024);
    await signIn(page, KITCHEN);
    await page.locator('.column').first().waitFor();
    const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
    expect(width).to.be.at.most(768);
    for (const status of ['placed', 'accepted', 'preparing', 'ready']) expect(await column(page, status).isVisible(), status).to.equal(true);
    await page.close();
  });

  it('renders the board with orders in three columns to docs/images/kitchen.png (1280×800)', async () => {
    const pizza = menu.find((product) => product.option_groups.some((group) => group.min > 0)) ?? menu[6]!;
    const preparing = await place(pizza, 1, true);
    await move(preparing, 'accepted');
    await move(preparing, 'preparing');
    const accepted = await place(menu[7]!, 3);
    await move(accepted, 'accepted');
    await place(menu[8]!);
    const page = screens[0]!;
    await column(page, 'preparing').locator(`[data-order-id="${preparing}"]`).waitFor({ timeout: 2_000 });
    await column(page, 'accepted').locator(`[data-order-id="${accepted}"]`).waitFor({ timeout: 2_000 });
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    expect(existsSync(SCREENSHOT)).to.equal(true);
  });

  it('loads nothing from another origin and breaks no rule of its Content-Security-Policy', () => {
    expect(problems).to.deep.equal([]);
  });
});
