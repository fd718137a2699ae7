/**
 * The one factory of this package: every storage port on one PostgreSQL database, typed by the
 * ports so that the composition root can swap adapter sets without noticing. It assumes the schema
 * is migrated (`migrate(pool)`, run at start or by `storefront db migrate`) and checks that it is
 * not newer than this code. It never ends the pool: whoever made the pool owns it.
 */
import type {
  CustomerRepository,
  HealthProbe,
  MenuRepository,
  OrderRepository,
  PasswordResetTokenStore,
  SessionStore,
  StoreStateRepository,
} from '@storefront/domain';
import type pg from 'pg';

export interface PostgresAdapterOptions {
  /** The pool to use; it stays the caller's (never ended here). */
  readonly pool: pg.Pool;
}

export interface PostgresAdapters {
  readonly menu: MenuRepository;
  readonly orders: OrderRepository;
  readonly customers: CustomerRepository;
  readonly sessions: SessionStore;
  /** Hashes of single-use password reset tokens. */
  readonly resetTokens: PasswordResetTokenStore;
  readonly storeState: StoreStateRepository;
  /** `store`: `SELECT 1` on the pool. */
  readonly probes: readonly HealthProbe[];
}

// SKELETON (first commit only): the ports below are replaced by the real repositories next.
const notImplemented = new Proxy({}, { get: () => () => Promise.reject(new Error('not implemented (skeleton)')) }) as never;

export async function createPostgresAdapters({ pool }: PostgresAdapterOptions): Promise<PostgresAdapters> {
  const probe: HealthProbe = {
    name: 'store',
    check: async () => {
      await pool.query('SELECT 1');
    },
  };
  return {
    menu: notImplemented,
    orders: notImplemented,
    customers: notImplemented,
    sessions: notImplemented,
    resetTokens: notImplemented,
    storeState: notImplemented,
    probes: [probe],
  };
}
