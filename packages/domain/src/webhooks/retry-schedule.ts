/**
 * What one attempt comes to (DECISIONS "Webhooks (outgoing)"): a 2xx is delivered; anything else is
 * tried again after WEBHOOK_RETRY_DELAYS_MS[attempt - 1] ±WEBHOOK_RETRY_JITTER (so that endpoints
 * coming back do not get every retry at once), and failed after the last; a 410 is failed at once
 * (the endpoint is disabled by the dispatcher).
 */
import { WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_RETRY_JITTER, type DeliveryOutcome } from './model.js';
import type { WebhookResponse } from './ports.js';

/** A uniform number in [0, 1): Math.random in production, a seeded one in tests. */
export type Random = () => number;

export const GONE = 410;

/** The outcome of attempt number `attempt` (1 for the first) that got `response` at `at`. */
export function outcomeOf(response: WebhookResponse, attempt: number, at: Date, random: Random): DeliveryOutcome {
  if (response.kind === 'response' && response.statusCode >= 200 && response.statusCode < 300) {
    return { kind: 'delivered', at, statusCode: response.statusCode };
  }
  const what =
    response.kind === 'response'
      ? { statusCode: response.statusCode, error: `HTTP ${response.statusCode}` }
      : { error: response.error, ...(response.statusCode === undefined ? {} : { statusCode: response.statusCode }) };
  const delay = WEBHOOK_RETRY_DELAYS_MS[attempt - 1];
  if (delay === undefined || (response.kind === 'response' && response.statusCode === GONE)) return { kind: 'failed', at, ...what };
  const jittered = Math.round(delay * (1 + WEBHOOK_RETRY_JITTER * (2 * random() - 1)));
  return { kind: 'retry', at, nextAttemptAt: new Date(at.getTime() + jittered), ...what };
}
