/** The quota headers of DECISIONS, on every response, errors included. */
import type { RateLimitStatus } from '@storefront/domain';
import type { Reply } from '../reply.js';

export function setRateLimitHeaders(reply: Reply, status: RateLimitStatus): void {
  reply.set('RateLimit', `"default";r=${status.remaining};t=${status.reset}`);
  reply.set('X-RateLimit-Limit', String(status.limit));
  reply.set('X-RateLimit-Remaining', String(status.remaining));
  reply.set('X-RateLimit-Reset', String(Math.ceil(Date.now() / 1000) + status.reset));
}
