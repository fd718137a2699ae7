/**
 * The service's payment work in the background (STOREFRONT_PAYMENTS=stripe), started once the store
 * serves and stopped before the adapters close: the domain's sweeper of payments without news, and
 * the retention of the provider's processed events. An event id is kept for PROVIDER_EVENT_RETENTION_MS
 * after it took effect, well past Stripe's 3 days of retries, so that a late repeat is still known;
 * removed a bounded batch at a time, one statement every RETENTION_PERIOD_MS.
 */
import type { Clock, Storefront } from '@storefront/domain';
import type { ProviderEvents } from '@storefront/domain/adapter-kit';
import type { Logger } from './logger.js';

export const PROVIDER_EVENT_RETENTION_MS = 30 * 86_400_000;
const RETENTION_PERIOD_MS = 10 * 60_000;
const RETENTION_BATCH = 1_000;

export interface PaymentUpkeep {
  stop(): void;
}

export interface PaymentUpkeepOptions {
  /** How often processed events are removed. Default 10 minutes. */
  readonly retentionPeriodMs?: number;
}

/** Starts the sweeper and the retention; a storefront without payments has neither (nothing starts). */
export function startPaymentUpkeep(storefront: Storefront, providerEvents: ProviderEvents, clock: Clock, logger: Logger, options: PaymentUpkeepOptions = {}): PaymentUpkeep {
  const sweeper = storefront.paymentSweeper;
  if (sweeper === undefined) return { stop: () => undefined };
  sweeper.start();
  let running: Promise<void> = Promise.resolve();
  const removeExpired = (): void => {
    running = running.then(async () => {
      try {
        const removed = await providerEvents.removeBefore(new Date(clock.now().getTime() - PROVIDER_EVENT_RETENTION_MS), RETENTION_BATCH);
        if (removed > 0) logger.debug({ removed }, 'payments: processed provider events removed');
      } catch (error) {
        logger.warn({ err: error }, 'payments: removing old provider events failed; tried again later');
      }
    });
  };
  removeExpired();
  const timer = setInterval(removeExpired, options.retentionPeriodMs ?? RETENTION_PERIOD_MS);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      sweeper.stop();
    },
  };
}
