import Koa from 'koa';
import type { Storefront } from '@storefront/domain';

/** The subset of pino's API the adapter logs through. */
export interface HttpLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface HttpAppOptions {
  /** Largest accepted JSON body. Default 16 KiB. */
  readonly bodyLimitBytes?: number;
  /** Trust X-Forwarded-For for the client address (behind a load balancer). Default false. */
  readonly trustProxy?: boolean;
}

export interface HttpAppDependencies {
  readonly storefront: Storefront;
  readonly logger: HttpLogger;
  readonly options?: HttpAppOptions;
}

export function createHttpApp(deps: HttpAppDependencies): Koa {
  void deps;
  return new Koa();
}
