/**
 * @storefront/domain embedded without HTTP: the examples run as written, the package root exports
 * exactly the public API and no more than an embedder uses (what only adapters share is the second
 * entry point, adapter-kit), and the packed domain alone type-checks in a consumer project with no
 * network (pnpm pack, tar, tsc). The README's snippet runs against the three packed packages
 * installed with npm, as another team gets them: packaging.spec.ts.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'mocha';
import { expect } from 'chai';
import ts from 'typescript';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const DOMAIN = join(ROOT, 'packages', 'domain');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** What `import * from '@storefront/domain'` holds at run time; types are checked by the consumer below. */
const RUNTIME_EXPORTS = [
  // Wiring, and the defaults of its options.
  'createStorefront',
  'DEFAULT_LOGIN_POLICY',
  'DEFAULT_PASSWORD_RESET_URL',
  'DEFAULT_POLL_POLICY',
  'DEFAULT_REGISTER_POLICY',
  'DEFAULT_REQUEST_POLICY',
  // Errors.
  'DomainError',
  'isDomainError',
  'RateLimitedError',
  // The rules a form needs.
  'DISPLAY_NAME_RULE',
  'EMAIL_RULE',
  'MONEY_RULE',
  'ORDER_LIMITS',
  'ORDER_MOVES',
  'ORDER_STATUSES',
  'PASSWORD_RULE',
  'ROLES',
  'TAX_RATE_RULE',
  // Outgoing webhooks: the event types an endpoint subscribes to.
  'WEBHOOK_EVENT_TYPES',
];

/**
 * The most names, values and types, the package root may export. What only adapters share belongs
 * in `@storefront/domain/adapter-kit`; raise this only for something an embedder cannot do without.
 */
const ROOT_EXPORT_LIMIT = 80;

/** Every name (values and types) a built entry point's declarations export, as a consumer's compiler sees them. */
function exportedNames(declarations: string): string[] {
  const program = ts.createProgram([declarations], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: [] });
  const source = program.getSourceFile(declarations);
  const checker = program.getTypeChecker();
  const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`no module at ${declarations}`);
  return checker.getExportsOfModule(module).map((symbol) => symbol.name);
}

function node(args: string[], cwd = ROOT): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, args, { cwd, timeout: 20_000 });
}

describe('embedding @storefront/domain', () => {
  it('runs examples/embed-orders.mjs: places, replays, refuses and lists orders without HTTP', async () => {
    const { stdout } = await node([join(ROOT, 'examples', 'embed-orders.mjs')]);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).to.equal('menu: 3 dishes');
    expect(lines[1]).to.match(/^logged in as ann@example\.com \(cus_[0-9a-z]+\), token valid 900 s$/);
    expect(lines[2]).to.match(/^order ord_[0-9a-z]+: 2 x Margherita \+ 1 x Tiramisu = 3280 USD$/);
    expect(lines[3]).to.equal('retry with the same key: replayed true, same order true');
    expect(lines[4]).to.equal('refused: unknown_product (items.0.productId: no product prd_nosuchdish on the menu)');
    expect(lines[5]).to.equal('refused: product_unavailable (items.0.productId: Truffle risotto is not available right now)');
    expect(lines[6]).to.equal('orders: 2 (page 1, next null), 5380 USD in all');
  });

  it('runs examples/kitchen-loop.mjs: a kitchen accepts, cooks and completes every open order, an owner cancels, a pause refuses', async () => {
    const { stdout } = await node([join(ROOT, 'examples', 'kitchen-loop.mjs')]);
    const lines = stdout.trim().split('\n');
    expect(lines.filter((line) => / placed ord_/.test(line))).to.have.length(4);
    expect(lines.filter((line) => /^ord_[0-9a-z]+ cancelled by its owner \(version 2\)$/.test(line))).to.have.length(1);
    // Three orders, four steps each, one step per round.
    for (const step of ['placed → accepted', 'accepted → preparing', 'preparing → ready', 'ready → completed']) {
      expect(lines.filter((line) => line.startsWith('round ') && line.endsWith(step)), step).to.have.length(3);
    }
    expect(lines).to.include('refused: invalid_transition: The order is completed; it cannot move to preparing.');
    expect(lines.at(-3)).to.match(/^history of ord_[0-9a-z]+: placed → accepted → preparing → ready → completed$/);
    expect(lines.at(-2)).to.equal('paused: store_closed: The kitchen has paused ordering for now; try again later.');
    // 4 placements; 1 cancel + 3 orders × 4 moves: every one on the live feed, once, ids 1 to 17.
    expect(lines.at(-1)).to.equal('kitchen feed: 4 placed, 13 status changes, last event 17');
  });

  it('exports exactly the public API from the package root', async () => {
    const domain = (await import(pathToFileURL(join(DOMAIN, 'dist', 'src', 'index.js')).href)) as Record<string, unknown>;
    expect(Object.keys(domain).sort()).to.deep.equal([...RUNTIME_EXPORTS].sort());
  });

  it(`keeps the package root to what an embedder uses: at most ${ROOT_EXPORT_LIMIT} names, none of them also in adapter-kit`, () => {
    const root = exportedNames(join(DOMAIN, 'dist', 'src', 'index.d.ts'));
    const kit = exportedNames(join(DOMAIN, 'dist', 'src', 'adapter-kit.d.ts'));
    expect(root.length, `names exported by @storefront/domain: ${root.sort().join(' ')}`).to.be.at.most(ROOT_EXPORT_LIMIT);
    // What adapters share is there and only there: an adapter's ports come from the root, its helpers from the kit.
    expect(kit).to.include.members(['newId', 'toPage', 'planMove', 'copyIdempotencyRecord', 'LeaseRequest', 'RateLimitDecision']);
    expect(root.filter((name) => kit.includes(name)), 'exported by both entry points').to.deep.equal([]);
    // Plumbing adapters share is in @storefront/adapter-support, adapters-redis and adapters-crypto, not in the domain.
    const plumbing = ['databaseOperations', 'leaseWindow', 'HELD_BACK_RECHECK_MS', 'decideSlidingWindow', 'FallbackRateLimiter', 'CachingTokenService', 'BUSY_PAUSE_MS'];
    expect([...root, ...kit].filter((name) => plumbing.includes(name)), 'adapter plumbing in the domain').to.deep.equal([]);
  });

  describe('packed with pnpm pack', function () {
    this.timeout(30_000);
    let work = '';

    before(() => {
      work = mkdtempSync(join(tmpdir(), 'storefront-pack-'));
    });

    after(() => {
      if (work !== '') rmSync(work, { recursive: true, force: true });
    });

    it('type-checks and runs a consumer project against the tarball alone', async () => {
      const packs = join(work, 'packs');
      mkdirSync(packs);
      const pnpm = process.platform === 'win32' ? 'pnpm.cmd' : 'pnpm';
      await run(pnpm, ['pack', '--pack-destination', packs], { cwd: DOMAIN, timeout: 20_000 });
      const tarball = join(packs, 'storefront-domain-0.1.0.tgz');

      const consumer = join(work, 'consumer');
      const installed = join(consumer, 'node_modules', '@storefront', 'domain');
      mkdirSync(installed, { recursive: true });
      await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], { timeout: 10_000 });
      const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { dependencies?: object };
      expect(manifest.dependencies ?? {}, 'no runtime dependencies').to.deep.equal({});

      writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
      writeFileSync(
        join(consumer, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2023',
            lib: ['ES2023'],
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            exactOptionalPropertyTypes: true,
            noUncheckedIndexedAccess: true,
            skipLibCheck: false,
            types: [],
            outDir: 'out',
          },
          files: ['consumer.ts', 'unreachable.ts'],
        }),
      );
      writeFileSync(join(consumer, 'consumer.ts'), CONSUMER_TS);
      writeFileSync(join(consumer, 'unreachable.ts'), UNREACHABLE_TS);

      const tsc = await node([TSC, '-p', join(consumer, 'tsconfig.json')], consumer).catch((error: { stdout?: string }) => {
        throw new Error(`tsc failed against the packed package:\n${error.stdout ?? String(error)}`);
      });
      expect(tsc.stdout).to.equal('');
      const { stdout } = await node([join(consumer, 'out', 'consumer.js')], consumer);
      expect(stdout.trim()).to.match(/^ord_[0-9a-z]+ 1780 USD validation_failed$/);
    });
  });
});

/**
 * A consumer of the packed package that writes its own adapters over the ports (the domain has no
 * I/O), typed against the published declarations only: the ports and the wiring from the package
 * root, as an embedder gets them, and an adapter author's helpers (ids, paging) from adapter-kit.
 */
const CONSUMER_TS = `
declare const console: { log(...values: unknown[]): void };
import { newId, toPage } from '@storefront/domain/adapter-kit';
import {
  createStorefront,
  isDomainError,
  type Customer,
  type CustomerRepository,
  type IdempotencyKeys,
  type MenuRepository,
  type Order,
  type OrderOutbox,
  type OrderRepository,
  type PasswordHasher,
  type PasswordResetTokenStore,
  type PendingErasures,
  type Product,
  type OrderEventLog,
  type RateLimiter,
  type SessionStore,
  type Storefront,
  type StoreStateRepository,
  type TokenService,
} from '@storefront/domain';

const products: Product[] = [
  { productId: newId('prd'), name: 'Crème brûlée', description: '', category: 'Desserts', price: 890, currency: 'USD', tags: [], available: true, optionGroups: [] },
];
const orders: Order[] = [];
const unused = (): never => {
  throw new Error('not used here');
};
const menu: MenuRepository = {
  list: async () => products,
  findByIds: async (ids) => products.filter((p) => ids.includes(p.productId)),
  upsertByName: async () => products,
  setAvailability: unused,
  revision: async () => '1',
};
const orderRepository: OrderRepository = {
  insert: async (order) => {
    orders.push(order);
    return { order, inserted: true };
  },
  findOrder: async (customerId, orderId) => orders.find((o) => o.customerId === customerId && o.orderId === orderId) ?? null,
  listByCustomer: async (customerId, page) => {
    const mine = orders.filter((o) => o.customerId === customerId);
    return toPage(mine.slice((page.page - 1) * page.limit, page.page * page.limit), mine.length, page);
  },
  findById: async (orderId) => orders.find((o) => o.orderId === orderId) ?? null,
  applyMove: unused,
  listByStatus: unused,
  eraseDeliveryAddresses: async () => undefined,
};
const idempotencyKeys: IdempotencyKeys = {
  claim: async () => ({ kind: 'claimed' }),
  takeOver: async () => false,
  complete: async () => true,
  abandon: async () => undefined,
  release: async () => undefined,
};
// The outbox of live order events: nothing is ever due here (no log is read).
const orderOutbox: OrderOutbox = { listUnpublished: async () => [], markPublished: async () => undefined };
const customers: CustomerRepository = { findByEmail: async () => null, findById: async (): Promise<Customer | null> => null, create: unused, setDisabled: unused, setRole: unused, updatePasswordHash: unused, delete: unused };
const pendingErasures: PendingErasures = { mark: unused, list: async () => [] };
const sessions: SessionStore = { create: unused, findById: async () => null, rotate: unused, revoke: unused, revokeAllOf: unused };
const resetTokens: PasswordResetTokenStore = { save: unused, find: async () => null, consume: async () => null, deleteAllOf: unused };
const limiter: RateLimiter = {
  consume: async (_key, policy) => ({ allowed: true, limit: policy.limit, remaining: policy.limit, resetMs: 0, retryAfterMs: 0 }),
  peek: async (_key, policy) => ({ allowed: true, limit: policy.limit, remaining: policy.limit, resetMs: 0, retryAfterMs: 0 }),
};
const hasher: PasswordHasher = { hash: unused, verify: async () => false, needsRehash: () => false };
const tokens: TokenService = { issue: unused, verify: unused };
const storeState: StoreStateRepository = { get: async () => ({ acceptingOrders: true }), setAcceptingOrders: unused };
const events: OrderEventLog = {
  append: async () => undefined,
  position: async () => ({ head: '0', orderVersion: 0 }),
  readAfter: async () => ({ kind: 'reset' }),
  subscribe: () => () => undefined,
  eraseDeliveryAddresses: async () => undefined,
};

const storefront: Storefront = createStorefront({ menu, orders: orderRepository, idempotencyKeys, orderOutbox, customers, pendingErasures, sessions, resetTokens, limiter, hasher, tokens, storeState, events });
const customerId = newId('cus');
const { order } = await storefront.placeOrder.execute({ customerId, items: [{ productId: products[0]!.productId, quantity: 2 }] });
const refused = await storefront.placeOrder.execute({ customerId, items: [] }).then(
  () => 'placed',
  (error: unknown) => (isDomainError(error) ? error.code : 'unexpected'),
);
console.log(order.orderId, order.amount, order.currency, refused);
`;

/** Type-checked, never run: each `@ts-expect-error` fails the check if its import starts to work. */
const UNREACHABLE_TS = `
import { PlaceOrder } from '@storefront/domain/adapter-kit';
// @ts-expect-error an adapter author's helper is not in the package root: it is in adapter-kit
import { newId } from '@storefront/domain';
// @ts-expect-error the search index is internal
import { MenuSearchIndex } from '@storefront/domain/adapter-kit';
// @ts-expect-error no deep imports: the exports map has two entries, the root and adapter-kit
import { sha256Hex } from '@storefront/domain/dist/src/shared/ids.js';
export const internals = [newId, MenuSearchIndex, sha256Hex];
// @ts-expect-error use cases are types only: createStorefront builds them
export const useCaseClass = PlaceOrder;
`;
