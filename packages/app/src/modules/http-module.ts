/**
 * The HTTP app of @storefront/adapters-http, handed the Storefront, the logger, the proxy settings,
 * the metrics observer, the payment events' intake (with payments on) and, with STOREFRONT_DOCS, the
 * API reference (limits are the adapter's).
 */
import { createHttpApp } from '@storefront/adapters-http';
import type { Clock } from '@storefront/domain';
import type { Timers } from '@storefront/domain/adapter-kit';
import { ContainerModule } from 'inversify';
import { loadApiReference } from '../api-reference.js';
import { bindFactory } from '../binding.js';
import { loadKitchenPage } from '../kitchen-page.js';
import { TYPES } from '../identifiers.js';
import { createAccessLog } from '../logger.js';

/** The live streams' ping and revalidation periods, when not the adapter's STREAM_LIMITS, and their clock and timers (tests). */
export interface StreamTimings {
  readonly pingMs?: number;
  readonly revalidateMs?: number;
  readonly clock?: Clock;
  readonly timers?: Timers;
}

export function httpModule(timings: StreamTimings = {}): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bindFactory(bind, TYPES.HttpApp, [TYPES.Storefront, TYPES.Logger, TYPES.Config, TYPES.Metrics, TYPES.ServingPressure, TYPES.StartGate, TYPES.CardPayments], (storefront, logger, config, metrics, pressure, gate, payments) =>
      createHttpApp({
        storefront,
        // POST /api/payments/stripe/webhook, with payments on.
        paymentEvents: payments?.events,
        logger,
        accessLog: createAccessLog(logger),
        options: {
          trustProxy: config.trustProxy,
          trustProxyHops: config.trustProxyHops,
          streams: { ...timings, perCaller: config.streamsPerCaller, perInstance: config.streamsMax },
          // Each answer is counted for the serving pressure (webhooks give way to requests), and metered.
          observer: {
            request: (sample) => {
              pressure.noteRequest();
              metrics?.http.request(sample);
            },
            failure: (error) => metrics?.http.failure?.(error),
          },
          apiReference: config.docs ? loadApiReference() : undefined,
          kitchenPage: config.kitchenPage ? loadKitchenPage() : undefined,
          // 503 + Retry-After until start-up is done (server.ts opens the gate).
          ready: () => gate.isOpen,
        },
      }),
    );
  });
}
