import type { RateLimiter, RateLimitPolicy } from './rate-limiter.js';
import { keyOf, toStatus, type RateLimitStatus, type RateLimitSubject } from './rate-limits.js';

/** The subject's quota as it stands, consuming nothing. */
export class GetRateLimitStatus {
  constructor(
    private readonly limiter: RateLimiter,
    readonly policy: RateLimitPolicy,
  ) {}

  async execute(subject: RateLimitSubject): Promise<RateLimitStatus> {
    return toStatus(await this.limiter.peek(keyOf(subject), this.policy), this.policy, subject.scope);
  }
}
